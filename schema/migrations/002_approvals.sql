-- The approval ledger: the single source of truth for "may this write run?".
-- Every transition is one conditional UPDATE (WHERE status = ...), so a race has one winner.
CREATE TABLE approvals (
  id                   uuid PRIMARY KEY,
  thread_id            text NOT NULL,
  tool_call_id         text NOT NULL,
  tool                 text NOT NULL,
  status               text NOT NULL CHECK (status IN (
                         'pending', 'approved', 'rejected', 'expired', 'superseded', 'withdrawn',
                         'executing', 'executed', 'failed')),
  args_original        jsonb NOT NULL,
  args                 jsonb NOT NULL,
  args_hash            text NOT NULL,
  customer_id          text,
  proposed_by          text NOT NULL,
  request_text         text,
  approver             text,
  decided_at           timestamptz,
  decision_reason      text,
  expires_at           timestamptz NOT NULL,
  superseded_by        uuid REFERENCES approvals (id),
  claimed_by           text,
  claimed_at           timestamptz,
  executed_at          timestamptz,
  result               jsonb,
  error                jsonb,
  outcome_delivered_at timestamptz,
  card_channel         text,
  card_ts              text,
  created_at           timestamptz NOT NULL,
  -- Recording the same proposal twice (a re-run node, a retried request) is a no-op.
  UNIQUE (thread_id, tool_call_id)
);
CREATE INDEX approvals_status ON approvals (status, expires_at);
CREATE INDEX approvals_thread ON approvals (thread_id, created_at);
CREATE INDEX approvals_customer ON approvals (customer_id, created_at);
CREATE INDEX approvals_approver ON approvals (approver, decided_at);

-- Append-only: proposal, edit, decision, execution, result, expiry.
CREATE TABLE audit_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at          timestamptz NOT NULL,
  actor       text NOT NULL,
  action      text NOT NULL,
  approval_id uuid,
  thread_id   text,
  customer_id text,
  details     jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_approval ON audit_log (approval_id, id);
CREATE INDEX audit_log_thread ON audit_log (thread_id, id);
CREATE INDEX audit_log_customer ON audit_log (customer_id, id);
CREATE INDEX audit_log_actor ON audit_log (actor, id);

CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();
