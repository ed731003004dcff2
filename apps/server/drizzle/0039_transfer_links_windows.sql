ALTER TABLE "transfers" ADD COLUMN "custom_link" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "available_from" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_custom_link_idx" ON "transfers" USING btree (lower("custom_link"));--> statement-breakpoint
CREATE INDEX "transfers_pending_idx" ON "transfers" USING btree ("available_from") WHERE "transfers"."status" = 'PENDING';