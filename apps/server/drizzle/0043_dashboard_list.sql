-- The dashboard's list: its search in one column, and each owner's storage in use as a running total.
--
-- The search in one column: transfers.search_text holds the name, then each file's name and each
-- recipient's address, one per line (as typed: ILIKE, pg_trgm and ferry_short_grams fold case themselves). A search
-- then tests one column, through one trigram index (three characters or more) or one short-gram index (one or two),
-- instead of the name, every file and every recipient; the six indexes those needed go.
-- Kept for owned transfers only (no dashboard lists one without an owner, so an anonymous creation pays nothing
-- but a trigger's look-up): triggers below keep it on every write of a name, a file or a recipient.
ALTER TABLE "transfers" ADD COLUMN "search_text" text;--> statement-breakpoint
-- A transfer's search text, from its name (given: a BEFORE trigger has the new one) and its rows as they are now.
CREATE OR REPLACE FUNCTION ferry_transfer_search_text(transfer text, name text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce($2, '')
      || coalesce((SELECT string_agg(E'\n' || f.name, '' ORDER BY f.position, f.id)
                     FROM transfer_files f WHERE f.transfer_id = $1), '')
      || coalesce((SELECT string_agg(E'\n' || r.email, '' ORDER BY r.position, r.id)
                     FROM transfer_recipients r WHERE r.transfer_id = $1), '')
$$;--> statement-breakpoint
UPDATE "transfers" t SET "search_text" = s.text
  FROM (SELECT t2.id, coalesce(t2.name, '') || coalesce(f.text, '') || coalesce(r.text, '') AS text
          FROM transfers t2
          LEFT JOIN (SELECT transfer_id, string_agg(E'\n' || name, '' ORDER BY position, id) AS text
                       FROM transfer_files GROUP BY transfer_id) f ON f.transfer_id = t2.id
          LEFT JOIN (SELECT transfer_id, string_agg(E'\n' || email, '' ORDER BY position, id) AS text
                       FROM transfer_recipients GROUP BY transfer_id) r ON r.transfer_id = t2.id
         WHERE t2.owner_id IS NOT NULL) s
 WHERE t.id = s.id;--> statement-breakpoint
-- A new owned transfer: its name (its files and recipients come after it, each insert adding them below). Unless
-- its creator gives the whole text, with the files and recipients it inserts next in the same transaction (Ferry's
-- creation does: it spares the row two rewrites): their inserts then leave this transfer's text as it is.
CREATE OR REPLACE FUNCTION ferry_transfers_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.search_text IS NULL THEN
    NEW.search_text := coalesce(NEW.name, '');
  ELSE
    PERFORM set_config('ferry.search_text_given', NEW.id, true);
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transfers_search_insert" BEFORE INSERT ON "transfers"
  FOR EACH ROW WHEN (NEW.owner_id IS NOT NULL) EXECUTE FUNCTION ferry_transfers_search_insert();--> statement-breakpoint
-- A rename, or an owner given or taken away.
CREATE OR REPLACE FUNCTION ferry_transfers_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := CASE WHEN NEW.owner_id IS NULL THEN NULL ELSE ferry_transfer_search_text(NEW.id, NEW.name) END;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transfers_search_update" BEFORE UPDATE OF "name", "owner_id" ON "transfers"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.owner_id IS DISTINCT FROM NEW.owner_id)
  EXECUTE FUNCTION ferry_transfers_search_update();--> statement-breakpoint
-- Files or recipients inserted or deleted: once per statement (a creation inserts all its files in one or a few),
-- the transfers they belong to are given their text again. `changed` is the statement's transition table.
-- (Looked up first: an UPDATE of no row would still fire the statement triggers of transfers below.)
CREATE OR REPLACE FUNCTION ferry_transfer_rows_search_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  SELECT array_agg(t.id) INTO ids FROM transfers t
   WHERE t.id IN (SELECT DISTINCT c.transfer_id FROM changed c) AND t.owner_id IS NOT NULL
     AND (TG_OP <> 'INSERT' OR t.id IS DISTINCT FROM current_setting('ferry.search_text_given', true));
  IF ids IS NOT NULL THEN
    UPDATE transfers t SET search_text = ferry_transfer_search_text(t.id, t.name) WHERE t.id = ANY(ids);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transfer_files_search_insert" AFTER INSERT ON "transfer_files"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ferry_transfer_rows_search_changed();--> statement-breakpoint
CREATE TRIGGER "transfer_files_search_delete" AFTER DELETE ON "transfer_files"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ferry_transfer_rows_search_changed();--> statement-breakpoint
CREATE TRIGGER "transfer_recipients_search_insert" AFTER INSERT ON "transfer_recipients"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ferry_transfer_rows_search_changed();--> statement-breakpoint
CREATE TRIGGER "transfer_recipients_search_delete" AFTER DELETE ON "transfer_recipients"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ferry_transfer_rows_search_changed();--> statement-breakpoint
-- A file renamed or a recipient's address changed (one row at a time: transition tables take no column list, and
-- other updates of these rows — uploads, scans, visits — must not pay for this).
CREATE OR REPLACE FUNCTION ferry_transfer_row_search_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE transfers t SET search_text = ferry_transfer_search_text(t.id, t.name)
   WHERE t.id IN (OLD.transfer_id, NEW.transfer_id) AND t.owner_id IS NOT NULL;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transfer_files_search_rename" AFTER UPDATE OF "name", "transfer_id" ON "transfer_files"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.transfer_id IS DISTINCT FROM NEW.transfer_id)
  EXECUTE FUNCTION ferry_transfer_row_search_renamed();--> statement-breakpoint
CREATE TRIGGER "transfer_recipients_search_rename" AFTER UPDATE OF "email", "transfer_id" ON "transfer_recipients"
  FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.transfer_id IS DISTINCT FROM NEW.transfer_id)
  EXECUTE FUNCTION ferry_transfer_row_search_renamed();--> statement-breakpoint
CREATE INDEX "transfers_search_trgm_idx" ON "transfers" USING gin ("search_text" gin_trgm_ops) WHERE "transfers"."search_text" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "transfers_search_grams_idx" ON "transfers" USING gin (ferry_short_grams("search_text")) WHERE "transfers"."search_text" IS NOT NULL;--> statement-breakpoint
DROP INDEX "transfer_files_name_trgm_idx";--> statement-breakpoint
DROP INDEX "transfer_files_name_grams_idx";--> statement-breakpoint
DROP INDEX "transfer_recipients_email_trgm_idx";--> statement-breakpoint
DROP INDEX "transfer_recipients_email_grams_idx";--> statement-breakpoint
DROP INDEX "transfers_name_trgm_idx";--> statement-breakpoint
DROP INDEX "transfers_name_grams_idx";;--> statement-breakpoint
-- Each owner's storage in use (the bytes of their transfers neither expired, deleted nor retained: the quota's
-- rule), kept by triggers on transfers: per statement for inserts and deletes (one upsert per owner, in owner
-- order), per row for the updates that change it (an expiry, a status, an owner). The dashboard shows it on every
-- page, and every creation checks the quota against it: summing an owner's transfers took tens of milliseconds at
-- 100 000 of them.
CREATE TABLE "owner_storage" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
INSERT INTO "owner_storage" (owner_id, bytes)
  SELECT owner_id, sum(total_size) FROM transfers
   WHERE owner_id IS NOT NULL AND expired_at IS NULL AND status NOT IN ('DELETED', 'RETAINED')
   GROUP BY owner_id;--> statement-breakpoint
-- `added`, `removed`: the statement's rows after and before it.
CREATE OR REPLACE FUNCTION ferry_owner_storage_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO owner_storage AS s (owner_id, bytes)
      SELECT owner_id, sum(total_size) FROM added
       WHERE owner_id IS NOT NULL AND expired_at IS NULL AND status NOT IN ('DELETED', 'RETAINED')
       GROUP BY owner_id ORDER BY owner_id
      ON CONFLICT (owner_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO owner_storage AS s (owner_id, bytes)
      SELECT owner_id, -sum(total_size) FROM removed
       WHERE owner_id IS NOT NULL AND expired_at IS NULL AND status NOT IN ('DELETED', 'RETAINED')
       GROUP BY owner_id ORDER BY owner_id
      ON CONFLICT (owner_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transfers_storage_insert" AFTER INSERT ON "transfers"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ferry_owner_storage_changed();--> statement-breakpoint
-- An update moves storage only when it changes what the rule reads: per row, and only then (a transition table
-- cannot be limited to columns, and every download's count is an UPDATE of its transfer).
CREATE OR REPLACE FUNCTION ferry_owner_storage_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was bigint := CASE WHEN OLD.owner_id IS NOT NULL AND OLD.expired_at IS NULL
    AND OLD.status NOT IN ('DELETED', 'RETAINED') THEN OLD.total_size ELSE 0 END;
  now_stored bigint := CASE WHEN NEW.owner_id IS NOT NULL AND NEW.expired_at IS NULL
    AND NEW.status NOT IN ('DELETED', 'RETAINED') THEN NEW.total_size ELSE 0 END;
BEGIN
  IF OLD.owner_id IS NOT DISTINCT FROM NEW.owner_id THEN
    IF now_stored <> was THEN
      INSERT INTO owner_storage AS s (owner_id, bytes) VALUES (NEW.owner_id, now_stored - was)
        ON CONFLICT (owner_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
    END IF;
    RETURN NULL;
  END IF;
  IF was <> 0 THEN
    INSERT INTO owner_storage AS s (owner_id, bytes) VALUES (OLD.owner_id, -was)
      ON CONFLICT (owner_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
  END IF;
  IF now_stored <> 0 THEN
    INSERT INTO owner_storage AS s (owner_id, bytes) VALUES (NEW.owner_id, now_stored)
      ON CONFLICT (owner_id) DO UPDATE SET bytes = s.bytes + EXCLUDED.bytes;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transfers_storage_update" AFTER UPDATE OF "owner_id", "total_size", "status", "expired_at" ON "transfers"
  FOR EACH ROW WHEN (OLD.owner_id IS DISTINCT FROM NEW.owner_id OR OLD.total_size IS DISTINCT FROM NEW.total_size
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.expired_at IS DISTINCT FROM NEW.expired_at)
  EXECUTE FUNCTION ferry_owner_storage_moved();--> statement-breakpoint
CREATE TRIGGER "transfers_storage_delete" AFTER DELETE ON "transfers"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ferry_owner_storage_changed();
