-- Search (src/modules/search/): accent- and case-insensitive matching of names, titles and bodies.
-- Written by hand (drizzle-kit generate --custom): extensions, a function and expression indexes are
-- not in the tables' model. Each extension is created where the database allows it; where it does
-- not, the migration still runs: f_unaccent folds the Portuguese and Spanish accented letters with
-- translate(), and the trigram indexes are left out (search then scans the school's rows).
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS unaccent;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'unaccent is not available (%): f_unaccent falls back to translate()', SQLERRM;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): search has no trigram indexes', SQLERRM;
END $$;
--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so it cannot be indexed: the usual IMMUTABLE
-- wrapper names the dictionary with its schema, wherever the extension was installed.
DO $$
DECLARE
  home text;
BEGIN
  SELECT n.nspname INTO home FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent';
  IF home IS NOT NULL THEN
    EXECUTE format(
      'CREATE OR REPLACE FUNCTION f_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS %L',
      format('SELECT %I.unaccent(%L::regdictionary, $1)', home, quote_ident(home) || '.unaccent'));
  ELSE
    CREATE OR REPLACE FUNCTION f_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS
      $f$ SELECT translate($1, 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ', 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy') $f$;
  END IF;
END $$;
--> statement-breakpoint
-- The searched expressions, exactly as src/content/search.ts writes them: `f_unaccent(column) ILIKE pattern`.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS users_search_full_name_idx ON users USING gin (f_unaccent(full_name) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS users_search_email_idx ON users USING gin (f_unaccent(email) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS courses_search_name_idx ON courses USING gin (f_unaccent(name) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS courses_search_description_idx ON courses USING gin (f_unaccent(description) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS lessons_search_title_idx ON lessons USING gin (f_unaccent(title) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS lessons_search_description_idx ON lessons USING gin (f_unaccent(description) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS forum_questions_search_title_idx ON forum_questions USING gin (f_unaccent(title) gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS forum_questions_search_description_idx ON forum_questions USING gin (f_unaccent(description) gin_trgm_ops);
  END IF;
END $$;
