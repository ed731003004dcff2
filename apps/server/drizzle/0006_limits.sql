ALTER TABLE "downloads" ADD COLUMN "bytes" bigint;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "storage_region" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "limit_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;