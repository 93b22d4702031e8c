-- Approval cards are an outbox too: every change of an approval's status asks for its card to be
-- redrawn, in the same transaction as the change (a trigger, so no transition can forget it), and a
-- per-channel sender in the bot draws the latest state and sends it at the pace Slack allows. One row
-- per approval coalesces several changes into one redraw; `version` tells a sender whether the card
-- changed again while it was sending; `claimed_by`/`claimed_until` keep two workers off one card,
-- and a worker that died mid-send leaves a claim that runs out.
CREATE SEQUENCE card_outbox_version;
CREATE TABLE card_outbox (
  approval_id   uuid PRIMARY KEY,
  version       bigint NOT NULL,
  requested_at  timestamptz NOT NULL DEFAULT now(),
  claimed_by    text,
  claimed_until timestamptz,
  attempts      integer NOT NULL DEFAULT 0
);
CREATE INDEX card_outbox_due ON card_outbox (requested_at);

CREATE FUNCTION card_outbox_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO card_outbox (approval_id, version) VALUES (NEW.id, nextval('card_outbox_version'))
  ON CONFLICT (approval_id) DO UPDATE SET version = EXCLUDED.version;
  RETURN NULL;
END $$;
CREATE TRIGGER approvals_card_proposed AFTER INSERT ON approvals
  FOR EACH ROW EXECUTE FUNCTION card_outbox_request();
-- approved → executing is no change to draw: the card shows both alike (bot/blocks/card.ts).
CREATE TRIGGER approvals_card_changed AFTER UPDATE OF status ON approvals
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
                     AND NOT (OLD.status = 'approved' AND NEW.status = 'executing'))
  EXECUTE FUNCTION card_outbox_request();

-- Cards that were due when this ran: pending approvals whose card never went out.
INSERT INTO card_outbox (approval_id, version)
SELECT id, nextval('card_outbox_version') FROM approvals WHERE status = 'pending' AND card_ts IS NULL;
