-- Follow-ups that arrive while their thread is busy (another run holds the lease, possibly a
-- worker that died) wait here, durably, instead of being refused: the lease holder, the next
-- message in the thread or any worker's sweeper answers them in order once the lease is free.
CREATE TABLE message_queue (
  id          bigserial PRIMARY KEY,
  thread_id   text NOT NULL,
  message_key text NOT NULL,
  input       jsonb NOT NULL,
  attempts    integer NOT NULL DEFAULT 0,
  last_error  text,
  queued_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (thread_id, message_key)
);
CREATE INDEX message_queue_thread ON message_queue (thread_id, id);
