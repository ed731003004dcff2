CREATE TABLE "mail_deliveries" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"claim_token" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"transmitting_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"message_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_deliveries_status_check" CHECK ("mail_deliveries"."status" IN ('sending', 'transmitting', 'sent', 'failed', 'rejected', 'in_doubt'))
);
--> statement-breakpoint
CREATE INDEX "mail_deliveries_attention_idx" ON "mail_deliveries" USING btree ("status","updated_at") WHERE "mail_deliveries"."status" IN ('transmitting', 'in_doubt', 'rejected');