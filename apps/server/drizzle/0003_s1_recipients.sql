CREATE TABLE "sender_verifications" (
	"transfer_id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"codes_sent" integer DEFAULT 1 NOT NULL,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "transfer_recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"position" integer NOT NULL,
	"email" text NOT NULL,
	"secret_hash" text NOT NULL,
	"reminders_off" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "recipient_id" bigint;--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "confirmation" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "download_confirmation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "expiry_reminder" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "notify_summary" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "force_email_when_download_s2" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "sender_verification" text DEFAULT 'not_needed' NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "reminded_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "origin" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "expired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sender_verifications" ADD CONSTRAINT "sender_verifications_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_recipients" ADD CONSTRAINT "transfer_recipients_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_recipients_email_idx" ON "transfer_recipients" USING btree ("transfer_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_recipients_secret_idx" ON "transfer_recipients" USING btree ("secret_hash");--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_recipient_id_transfer_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."transfer_recipients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "downloads_recipient_idx" ON "downloads" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "downloads_confirmation_idx" ON "downloads" USING btree ("created_at") WHERE "downloads"."confirmation" = 'pending';--> statement-breakpoint
CREATE INDEX "transfers_to_expire_idx" ON "transfers" USING btree ("expires_at") WHERE "transfers"."expired_at" IS NULL;--> statement-breakpoint
CREATE INDEX "transfers_unsent_idx" ON "transfers" USING btree ("updated_at") WHERE "transfers"."sent_at" IS NULL AND "transfers"."status" = 'ENABLED';--> statement-breakpoint
CREATE INDEX "transfers_reminders_idx" ON "transfers" USING btree ("expires_at") WHERE "transfers"."expiry_reminder" AND "transfers"."sent_at" IS NOT NULL AND "transfers"."expired_at" IS NULL;--> statement-breakpoint
-- Transfers made before e-mail existed went out when they became available.
UPDATE "transfers" SET "sent_at" = "updated_at" WHERE "status" <> 'UPLOADING';
