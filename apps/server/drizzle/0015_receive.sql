-- Receiving files (S3): file requests (/request-files), upload inboxes, their widgets, and what each received
-- transfer came through (docs/api.md "Receiving files").
CREATE TABLE "receive_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"link_mode" text NOT NULL,
	"subject" text,
	"message" text,
	"sender_name" text,
	"sender_email" text,
	"password_hash" text,
	"expires_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"expiry_reminder" boolean DEFAULT false NOT NULL,
	"upload_notification" boolean DEFAULT true NOT NULL,
	"allowed_extensions" text[] DEFAULT '{}'::text[] NOT NULL,
	"customization" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"locale" text,
	"time_zone" text,
	"origin" text,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receive_requests_link_mode_check" CHECK ("link_mode" IN ('S1', 'S2'))
);
--> statement-breakpoint
CREATE INDEX "receive_requests_owner_idx" ON "receive_requests" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "receive_requests_reminders_idx" ON "receive_requests" USING btree ("expires_at") WHERE "expiry_reminder" AND "reminded_at" IS NULL AND "closed_at" IS NULL;--> statement-breakpoint
CREATE TABLE "receive_request_recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL REFERENCES "receive_requests"("id") ON DELETE CASCADE,
	"position" integer NOT NULL,
	"email" text NOT NULL,
	"secret_hash" text NOT NULL,
	"uploaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "receive_request_recipients_email_idx" ON "receive_request_recipients" USING btree ("request_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "receive_request_recipients_secret_idx" ON "receive_request_recipients" USING btree ("secret_hash");--> statement-breakpoint
CREATE TABLE "inboxes" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"link_mode" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"password_hash" text,
	"allowed_extensions" text[] DEFAULT '{}'::text[] NOT NULL,
	"max_upload_bytes" bigint,
	"file_validity_days" integer,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"upload_notification" boolean DEFAULT true NOT NULL,
	"customization" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inboxes_link_mode_check" CHECK ("link_mode" IN ('S1', 'S2'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "inboxes_slug_idx" ON "inboxes" USING btree (lower("slug"));--> statement-breakpoint
CREATE INDEX "inboxes_owner_idx" ON "inboxes" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "inboxes_one_default_idx" ON "inboxes" USING btree ("owner_id") WHERE "is_default";--> statement-breakpoint
CREATE TABLE "widgets" (
	"id" text PRIMARY KEY NOT NULL,
	"inbox_id" text NOT NULL REFERENCES "inboxes"("id") ON DELETE CASCADE,
	"name" text,
	"theme" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "widgets_inbox_idx" ON "widgets" USING btree ("inbox_id","created_at");--> statement-breakpoint
CREATE TABLE "received_uploads" (
	"transfer_id" text PRIMARY KEY NOT NULL REFERENCES "transfers"("id") ON DELETE CASCADE,
	"request_id" text REFERENCES "receive_requests"("id") ON DELETE SET NULL,
	"inbox_id" text REFERENCES "inboxes"("id") ON DELETE SET NULL,
	"widget_id" text,
	"via_push" boolean DEFAULT false NOT NULL,
	"point_title" text,
	"recipient_id" bigint REFERENCES "receive_request_recipients"("id") ON DELETE SET NULL,
	"uploader_name" text,
	"uploader_email" text,
	"message" text,
	"answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"upload_notification" boolean DEFAULT true NOT NULL,
	"receipt_to" text,
	"uploader_locale" text,
	"uploader_time_zone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "received_uploads_request_idx" ON "received_uploads" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "received_uploads_inbox_idx" ON "received_uploads" USING btree ("inbox_id");
