CREATE TABLE "billing_customers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"country_code" text,
	"vat_number" text,
	"vat_number_valid" boolean,
	"company_name" text,
	"address" text,
	"currency" text,
	"provider" text,
	"provider_refs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"trial_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"plan_code" text NOT NULL,
	"frequency" text NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"tax_rate" double precision NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"status" text NOT NULL,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"trial_ends_at" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"pending_change" jsonb,
	"intent_status" text,
	"failed_intent_client_secret" text,
	"renewal_invoice_for" timestamp with time zone,
	"past_due_since" timestamp with time zone,
	"dunning_attempt" integer DEFAULT 0 NOT NULL,
	"next_retry_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_one_live_idx" ON "subscriptions" USING btree ("user_id") WHERE "subscriptions"."status" <> 'canceled';--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_provider_ref_idx" ON "subscriptions" USING btree ("provider","provider_ref");--> statement-breakpoint
CREATE INDEX "subscriptions_period_end_idx" ON "subscriptions" USING btree ("current_period_end");