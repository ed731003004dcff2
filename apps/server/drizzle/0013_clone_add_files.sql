CREATE TABLE "transfer_added_files" (
	"transfer_id" text NOT NULL,
	"id" text NOT NULL,
	"addition_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"relative_path" text,
	"size" bigint NOT NULL,
	"sha256" text,
	"crc32" bigint,
	"upload_id" text,
	"blob_key" text,
	"uploaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfer_added_files_transfer_id_id_pk" PRIMARY KEY("transfer_id","id")
);
--> statement-breakpoint
CREATE TABLE "transfer_additions" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"upload_token_hash" text NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "cloned_from" text;--> statement-breakpoint
ALTER TABLE "transfer_added_files" ADD CONSTRAINT "transfer_added_files_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_added_files" ADD CONSTRAINT "transfer_added_files_addition_id_transfer_additions_id_fk" FOREIGN KEY ("addition_id") REFERENCES "public"."transfer_additions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_additions" ADD CONSTRAINT "transfer_additions_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfer_added_files_addition_idx" ON "transfer_added_files" USING btree ("addition_id");--> statement-breakpoint
CREATE INDEX "transfer_additions_transfer_idx" ON "transfer_additions" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "transfer_additions_created_idx" ON "transfer_additions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "transfers_cloning_idx" ON "transfers" USING btree ("updated_at") WHERE "transfers"."status" = 'CLONING';