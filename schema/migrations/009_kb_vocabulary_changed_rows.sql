-- The vocabulary is rebuilt only by a statement that changed articles. A statement trigger fires for
-- every statement, and an upsert fires the INSERT and the UPDATE trigger both: every seeding (each
-- start, each eval and test database) rebuilt it twice though nothing, or only inserts, changed.
-- Per event, with the rows the statement changed (transition tables need one trigger per event).
CREATE OR REPLACE FUNCTION kb_vocabulary_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'TRUNCATE' AND NOT EXISTS (SELECT 1 FROM changed) THEN
    RETURN NULL;
  END IF;
  -- Two transactions changing articles at once rebuild one after the other: the second waits here
  -- and then reads the first one's committed articles (READ COMMITTED takes a fresh snapshot per statement).
  LOCK TABLE kb_vocabulary IN EXCLUSIVE MODE;
  DELETE FROM kb_vocabulary;
  INSERT INTO kb_vocabulary (word, ndoc) SELECT word, ndoc FROM ts_stat('SELECT search FROM kb_articles');
  RETURN NULL;
END;
$$;

DROP TRIGGER kb_vocabulary_refresh ON kb_articles;
CREATE TRIGGER kb_vocabulary_inserted AFTER INSERT ON kb_articles
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION kb_vocabulary_refresh();
CREATE TRIGGER kb_vocabulary_updated AFTER UPDATE ON kb_articles
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION kb_vocabulary_refresh();
CREATE TRIGGER kb_vocabulary_deleted AFTER DELETE ON kb_articles
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION kb_vocabulary_refresh();
CREATE TRIGGER kb_vocabulary_truncated AFTER TRUNCATE ON kb_articles
  FOR EACH STATEMENT EXECUTE FUNCTION kb_vocabulary_refresh();
