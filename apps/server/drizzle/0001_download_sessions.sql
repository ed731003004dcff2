CREATE TABLE "download_sessions" (
	"transfer_id" text NOT NULL,
	"browser_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "download_sessions_transfer_id_browser_code_pk" PRIMARY KEY("transfer_id","browser_code")
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "browser_code" text;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "order_id" text;--> statement-breakpoint
ALTER TABLE "download_sessions" ADD CONSTRAINT "download_sessions_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;