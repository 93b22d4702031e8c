-- Every API request counts itself in one rate_limits row (per key and minute), so with sync commits
-- each of them waited for a WAL flush while holding that row's lock, and the next request for the
-- same key queued behind it. The counts guard processes, not business rules: losing the current
-- minute's counts in a crash (an unlogged table is emptied by crash recovery, and is not on a
-- replica) only lets a client start that minute afresh. A transaction that writes nothing but
-- unlogged tables commits without flushing WAL.
ALTER TABLE rate_limits SET UNLOGGED;
