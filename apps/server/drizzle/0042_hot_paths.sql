CREATE TABLE "anonymous_pending" (
	"client_ip" text PRIMARY KEY NOT NULL,
	"bytes" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "transfers_anonymous_pending_idx";--> statement-breakpoint
-- What every address has unfinished now.
INSERT INTO "anonymous_pending" ("client_ip", "bytes")
  SELECT "client_ip", sum("total_size") FROM "transfers"
  WHERE "status" = 'UPLOADING' AND "client_ip" IS NOT NULL GROUP BY "client_ip";--> statement-breakpoint
-- A creation's share: adds its declared bytes to its address's total under the row's lock (held to the end of the
-- creating statement or transaction, so racing creations from one address, on any instance, take turns only for
-- this) and refuses past the cap with SQLSTATE FE001, DETAIL the bytes pending before. Returns the address, so it
-- is the value of the transfer's client_ip: the share is taken in the statement that inserts the transfer.
CREATE OR REPLACE FUNCTION ferry_reserve_pending(p_ip text, p_bytes bigint, p_cap bigint) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  INSERT INTO anonymous_pending AS p (client_ip, bytes) VALUES (p_ip, p_bytes)
  ON CONFLICT (client_ip) DO UPDATE SET bytes = p.bytes + excluded.bytes
  RETURNING p.bytes INTO total;
  IF total > p_cap THEN
    RAISE EXCEPTION 'unfinished anonymous uploads over the cap' USING ERRCODE = 'FE001', DETAIL = (total - p_bytes)::text;
  END IF;
  RETURN p_ip;
END
$$;--> statement-breakpoint
-- A transfer that leaves UPLOADING, loses its address or is deleted gives its share back.
CREATE OR REPLACE FUNCTION ferry_release_pending() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE anonymous_pending SET bytes = bytes - OLD.total_size WHERE client_ip = OLD.client_ip;
  DELETE FROM anonymous_pending WHERE client_ip = OLD.client_ip AND bytes <= 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transfers_pending_left" AFTER UPDATE OF "status", "client_ip" ON "transfers" FOR EACH ROW
  WHEN (OLD."status" = 'UPLOADING' AND OLD."client_ip" IS NOT NULL
    AND (NEW."status" <> 'UPLOADING' OR NEW."client_ip" IS DISTINCT FROM OLD."client_ip"))
  EXECUTE FUNCTION ferry_release_pending();--> statement-breakpoint
CREATE TRIGGER "transfers_pending_deleted" AFTER DELETE ON "transfers" FOR EACH ROW
  WHEN (OLD."status" = 'UPLOADING' AND OLD."client_ip" IS NOT NULL)
  EXECUTE FUNCTION ferry_release_pending();
--> statement-breakpoint
-- Whether a download link call of a visit (browserCode) counts, decided and counted in the caller's statement:
-- true when it may go on (counted now, or its visit was counted within the window), false when the transfer's
-- download limit stops it. The transfer's row lock (taken first) serialises every call on the transfer, so the
-- count never passes the limit and racing calls of one visit count once; a visit is only stored when counted.
CREATE OR REPLACE FUNCTION ferry_count_visit(p_transfer text, p_code text, p_client text, p_window_seconds int)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  room boolean;
  fresh boolean;
BEGIN
  SELECT max_downloads IS NULL OR download_count < max_downloads INTO room
    FROM transfers WHERE id = p_transfer FOR UPDATE;
  IF room IS NULL THEN
    RETURN false;
  END IF;
  IF NOT room THEN
    -- Full: only a visit already counted within its window goes on (the same page fetching another file).
    RETURN EXISTS (SELECT 1 FROM download_sessions
      WHERE transfer_id = p_transfer AND browser_code = p_code AND client = p_client
        AND counted_at > now() - make_interval(secs => p_window_seconds));
  END IF;
  INSERT INTO download_sessions AS s (transfer_id, browser_code, client) VALUES (p_transfer, p_code, p_client)
  ON CONFLICT (transfer_id, browser_code, client) DO UPDATE SET counted_at = now()
    WHERE s.counted_at <= now() - make_interval(secs => p_window_seconds)
  RETURNING true INTO fresh;
  IF fresh THEN
    UPDATE transfers SET download_count = download_count + 1 WHERE id = p_transfer;
  END IF;
  RETURN true;
END
$$;
