CREATE TABLE "purchases" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"seller_id" text,
	"email" text NOT NULL,
	"country_code" text NOT NULL,
	"vat_number" text,
	"locale" text,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"tax_rate" numeric(5, 2) NOT NULL,
	"tax" integer NOT NULL,
	"total" integer NOT NULL,
	"reverse_charge" boolean DEFAULT false NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"intent_status" text,
	"receipt_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "price_amount" integer;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "price_currency" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchases_transfer_idx" ON "purchases" USING btree ("transfer_id","paid_at");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_provider_ref_idx" ON "purchases" USING btree ("provider","provider_ref");