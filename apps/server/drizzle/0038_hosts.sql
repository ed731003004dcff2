CREATE TABLE "host_claims" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"owner_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"token" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verified_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"missing_since" timestamp with time zone,
	CONSTRAINT "host_claims_kind_check" CHECK ("host_claims"."kind" IN ('subdomain', 'custom')),
	CONSTRAINT "host_claims_status_check" CHECK ("host_claims"."status" IN ('pending', 'verified', 'suspended'))
);
--> statement-breakpoint
CREATE TABLE "host_handoffs" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "receive_requests" ADD COLUMN "host" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "host" text;--> statement-breakpoint
ALTER TABLE "host_claims" ADD CONSTRAINT "host_claims_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "host_claims_owner_host_idx" ON "host_claims" USING btree ("owner_id","host");--> statement-breakpoint
CREATE UNIQUE INDEX "host_claims_served_idx" ON "host_claims" USING btree ("host") WHERE "host_claims"."status" <> 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "host_claims_one_subdomain_idx" ON "host_claims" USING btree ("owner_id") WHERE "host_claims"."kind" = 'subdomain';--> statement-breakpoint
CREATE INDEX "host_handoffs_expires_idx" ON "host_handoffs" USING btree ("expires_at");