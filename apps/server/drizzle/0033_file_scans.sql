ALTER TABLE "transfer_files" ADD COLUMN "scan_status" text DEFAULT 'not-scanned' NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_files" ADD COLUMN "scan_signature" text;--> statement-breakpoint
ALTER TABLE "transfer_files" ADD COLUMN "scanned_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "transfer_files_scan_pending_idx" ON "transfer_files" USING btree ("transfer_id") WHERE scan_status = 'pending';