CREATE TABLE "moderation_holds" (
	"transfer_id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"held_by" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_sends" (
	"transfer_id" text PRIMARY KEY NOT NULL,
	"sender_email" text,
	"client_ip" text,
	"recipients" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfer_reports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"reason" text NOT NULL,
	"details" text,
	"reporter_email" text,
	"reporter_user_id" text,
	"reporter_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_as" text,
	"closed_at" timestamp with time zone,
	"closed_by" text
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "retained_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_reports" ADD CONSTRAINT "transfer_reports_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_sends_sender_idx" ON "moderation_sends" USING btree (lower("sender_email"),"at");--> statement-breakpoint
CREATE INDEX "moderation_sends_client_idx" ON "moderation_sends" USING btree ("client_ip","at");--> statement-breakpoint
CREATE INDEX "moderation_sends_at_idx" ON "moderation_sends" USING btree ("at");--> statement-breakpoint
CREATE INDEX "transfer_reports_open_idx" ON "transfer_reports" USING btree ("transfer_id","created_at") WHERE "transfer_reports"."closed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "transfer_reports_created_idx" ON "transfer_reports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "transfers_retained_idx" ON "transfers" USING btree ("retained_until") WHERE "transfers"."status" = 'RETAINED' AND "transfers"."expired_at" IS NULL;