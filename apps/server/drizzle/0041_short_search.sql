-- The dashboard's searches of one or two characters: every substring of one and two characters of a lowercased
-- text, for a GIN index (pg_trgm indexes start at three). lower() as ILIKE folds case.
CREATE OR REPLACE FUNCTION ferry_short_grams(value text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  l text := lower(value);
  n int := length(l);
  grams text[] := '{}';
BEGIN
  -- Repeated grams are fine: GIN keeps each key of a row once.
  FOR i IN 1..n LOOP
    grams := grams || substr(l, i, 1);
    IF i < n THEN grams := grams || substr(l, i, 2); END IF;
  END LOOP;
  RETURN grams;
END
$$;--> statement-breakpoint
CREATE INDEX "transfer_files_name_grams_idx" ON "transfer_files" USING gin (ferry_short_grams("name"));--> statement-breakpoint
CREATE INDEX "transfer_recipients_email_grams_idx" ON "transfer_recipients" USING gin (ferry_short_grams("email"));--> statement-breakpoint
CREATE INDEX "transfers_name_grams_idx" ON "transfers" USING gin (ferry_short_grams("name"));