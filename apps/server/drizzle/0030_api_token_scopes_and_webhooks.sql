CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"webhook_id" text NOT NULL,
	"event" text NOT NULL,
	"body" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"response_code" integer,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"team" boolean DEFAULT false NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "scopes" text[] DEFAULT ARRAY['transfers:read', 'transfers:write', 'receive']::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhooks_owner_idx" ON "webhooks" USING btree ("owner_id");--> statement-breakpoint
-- Webhook deliveries are made where the events are: a transfer event or a download of a transfer owned by the
-- webhook's user (or by any member of a team webhook's manager) queues one delivery per subscribed webhook, in
-- the same transaction. The body is fixed now; its id (the delivery's) stays the same on replay.
CREATE FUNCTION ferry_queue_webhook_deliveries(p_transfer_id text, p_event text, p_at timestamptz, p_data jsonb)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (id, webhook_id, event, body)
  SELECT d.id, w.id, p_event,
         jsonb_build_object(
           'id', d.id,
           'event', p_event,
           'createdAt', to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'transfer', jsonb_build_object(
             'id', t.id, 'type', t.type, 'status', t.status, 'name', t.name, 'ownerId', t.owner_id,
             'senderEmail', t.sender_email, 'fileCount', t.file_count, 'totalSize', t.total_size,
             'downloadCount', t.download_count,
             'expiresAt', to_char(t.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'createdAt', to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
           'data', coalesce(p_data, '{}'::jsonb))
    FROM transfers t
    JOIN users o ON o.id = t.owner_id
    JOIN webhooks w ON (w.owner_id = o.id OR (w.team AND w.owner_id = o.manager_id))
    CROSS JOIN LATERAL (SELECT 'whd_' || replace(gen_random_uuid()::text, '-', '') AS id) d
   WHERE t.id = p_transfer_id AND p_event = ANY (w.events);
END $$;
--> statement-breakpoint
CREATE FUNCTION ferry_transfer_event_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ferry_queue_webhook_deliveries(NEW.transfer_id, NEW.type, NEW.created_at, NEW.data);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER transfer_events_webhooks AFTER INSERT ON transfer_events
  FOR EACH ROW EXECUTE FUNCTION ferry_transfer_event_webhooks();
--> statement-breakpoint
CREATE FUNCTION ferry_download_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ferry_queue_webhook_deliveries(NEW.transfer_id, 'DOWNLOADED', NEW.created_at,
    jsonb_build_object('fileId', NEW.file_id, 'kind', NEW.kind, 'downloaderEmail', NEW.downloader_email));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER downloads_webhooks AFTER INSERT ON downloads
  FOR EACH ROW EXECUTE FUNCTION ferry_download_webhooks();
