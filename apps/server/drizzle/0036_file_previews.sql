CREATE TABLE "file_previews" (
	"transfer_id" text NOT NULL,
	"file_id" text NOT NULL,
	"status" text NOT NULL,
	"kind" text,
	"renditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"page_count" integer,
	"reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_previews_transfer_id_file_id_pk" PRIMARY KEY("transfer_id","file_id")
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "preview_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "file_previews" ADD CONSTRAINT "file_previews_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;