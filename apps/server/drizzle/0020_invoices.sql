CREATE TABLE "invoice_counters" (
	"prefix" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "invoice_counters_prefix_year_pk" PRIMARY KEY("prefix","year")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"user_id" text NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"lines" jsonb NOT NULL,
	"subtotal" bigint NOT NULL,
	"tax_rate" double precision NOT NULL,
	"tax" bigint NOT NULL,
	"total" bigint NOT NULL,
	"amount_due" bigint NOT NULL,
	"reverse_charge" boolean NOT NULL,
	"country_code" text NOT NULL,
	"vat_number" text,
	"vat_number_valid" boolean,
	"vat_check" text NOT NULL,
	"vies_unavailable" text,
	"buyer" jsonb NOT NULL,
	"seller" jsonb NOT NULL,
	"locale" text,
	"provider" text NOT NULL,
	"subscription_id" text,
	"purchase_id" text,
	"payment_ref" text,
	"issued_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"paid_by" text,
	"voided_at" timestamp with time zone,
	"voided_by" text,
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" IN ('open', 'paid', 'void'))
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_idx" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE INDEX "invoices_user_idx" ON "invoices" USING btree ("user_id","issued_at");--> statement-breakpoint
CREATE INDEX "invoices_open_idx" ON "invoices" USING btree ("status","issued_at");--> statement-breakpoint
CREATE INDEX "invoices_subscription_idx" ON "invoices" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "invoices_purchase_idx" ON "invoices" USING btree ("purchase_id");