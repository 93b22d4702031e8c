-- The help centre's vocabulary (each lexeme and how many articles use it), kept in a table instead of
-- recomputed with ts_stat over every article on every search. Articles change rarely and searches run
-- on every message, so the cost moves to the write: a statement trigger rebuilds the table from
-- ts_stat after any change to kb_articles, in the same transaction, so a search never sees a
-- vocabulary that disagrees with the articles it ranks. Additive: a new table, function and trigger only.
CREATE TABLE kb_vocabulary (
  word text PRIMARY KEY,
  ndoc integer NOT NULL
);

CREATE FUNCTION kb_vocabulary_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Two transactions changing articles at once rebuild one after the other: the second waits here
  -- and then reads the first one's committed articles (READ COMMITTED takes a fresh snapshot per statement).
  LOCK TABLE kb_vocabulary IN EXCLUSIVE MODE;
  DELETE FROM kb_vocabulary;
  INSERT INTO kb_vocabulary (word, ndoc) SELECT word, ndoc FROM ts_stat('SELECT search FROM kb_articles');
  RETURN NULL;
END;
$$;

CREATE TRIGGER kb_vocabulary_refresh
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON kb_articles
  FOR EACH STATEMENT EXECUTE FUNCTION kb_vocabulary_refresh();

INSERT INTO kb_vocabulary (word, ndoc) SELECT word, ndoc FROM ts_stat('SELECT search FROM kb_articles');
