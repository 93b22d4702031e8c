-- A search corrects a word the help centre never uses by the closest vocabulary word with the same
-- first letter (mcp-server/tools/search-knowledge-base.ts). Without an index that is a scan of the
-- whole vocabulary per unknown word, growing with the help centre; with it, one letter's words.
-- Additive: an index only.
CREATE INDEX kb_vocabulary_first_letter ON kb_vocabulary (left(word, 1));
