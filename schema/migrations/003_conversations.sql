-- Conversations, their full transcript (the graph state keeps only a window), Slack event
-- de-duplication, per-thread leases and rate-limit counters: all shared by every worker.
CREATE TABLE conversations (
  thread_id       text PRIMARY KEY,
  customer_id     text REFERENCES customers (id),
  source          text NOT NULL CHECK (source IN ('slack', 'api', 'eval')),
  slack_channel   text,
  slack_thread_ts text,
  slack_user_id   text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversations_customer ON conversations (customer_id);

CREATE TABLE conversation_messages (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  thread_id text NOT NULL REFERENCES conversations (thread_id),
  role      text NOT NULL CHECK (role IN ('customer', 'agent', 'event')),
  text      text NOT NULL,
  meta      jsonb NOT NULL DEFAULT '{}'::jsonb,
  at        timestamptz NOT NULL
);
CREATE INDEX conversation_messages_thread ON conversation_messages (thread_id, id);

-- Slack retries and duplicate deliveries: the first INSERT wins, on any worker.
CREATE TABLE slack_events (
  event_id    text PRIMARY KEY,
  kind        text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- One run per thread at a time, across workers. A row lease (not an advisory lock) so that it
-- holds behind a transaction pooler; an expired lease can be taken over (crashed worker).
CREATE TABLE thread_leases (
  thread_id  text PRIMARY KEY,
  holder     text NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE TABLE rate_limits (
  key          text NOT NULL,
  window_start timestamptz NOT NULL,
  count        integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
