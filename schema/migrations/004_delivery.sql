-- Nothing is silently dropped: agent replies are an outbox (delivered_at set once Slack has them),
-- and incoming Slack messages an inbox (status set to done once the turn is answered), so a
-- worker that dies mid-turn leaves work another worker can finish.
ALTER TABLE conversation_messages
  ADD COLUMN message_key  text,
  ADD COLUMN delivered_at timestamptz,
  ADD COLUMN created_at   timestamptz NOT NULL DEFAULT now();
CREATE UNIQUE INDEX conversation_messages_key ON conversation_messages (thread_id, message_key) WHERE message_key IS NOT NULL;
CREATE INDEX conversation_messages_undelivered ON conversation_messages (created_at) WHERE role = 'agent' AND delivered_at IS NULL;

ALTER TABLE slack_events
  ADD COLUMN status     text NOT NULL DEFAULT 'done' CHECK (status IN ('received', 'done')),
  ADD COLUMN payload    jsonb,
  ADD COLUMN attempts   integer NOT NULL DEFAULT 0,
  ADD COLUMN claimed_at timestamptz;
CREATE INDEX slack_events_unfinished ON slack_events (received_at) WHERE status = 'received';
