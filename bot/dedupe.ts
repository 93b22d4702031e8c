import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import { storableJson, storableText } from '../core/storable-text.js';
import { isPersonMessage } from './message-kinds.js';

const PRUNE_EVERY_MS = 60 * 60_000;
const KEEP_MS = 24 * 60 * 60_000;
let lastPrune = 0;

/**
 * Claim a Slack event id: true for the first delivery on any worker, false for every repeat
 * (Slack retries with X-Slack-Retry-Num, a load balancer replays, two workers get the same one).
 * One INSERT guarded by the primary key, so a race has one winner. Old ids are pruned now and then
 * (Slack retries for minutes, not days). Throws when the database cannot be reached: the caller
 * must then not ack (see receiver.ts).
 */
export async function claimSlackEvent(pool: Pool, eventId: string, kind: string, inbox?: unknown): Promise<boolean> {
  // Customer messages are kept as an inbox row ('received' until answered), so a worker that dies
  // mid-turn leaves them for another worker (see inbox.ts); other events are done on arrival.
  // jsonb refuses \u0000 and lone surrogates: a payload that fails here would be a lost message.
  const r = await pool.query(
    `INSERT INTO slack_events (event_id, kind, status, payload) VALUES ($1, $2, $3, $4)
     ON CONFLICT (event_id) DO NOTHING`,
    [
      storableText(eventId).slice(0, 200),
      storableText(kind).slice(0, 100),
      inbox ? 'received' : 'done',
      inbox ? JSON.stringify(storableJson(inbox)) : null,
    ],
  );
  if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
    lastPrune = Date.now();
    void pool
      .query(`DELETE FROM slack_events WHERE received_at < $1`, [new Date(Date.now() - KEEP_MS)])
      .catch(() => undefined);
  }
  return r.rowCount === 1;
}

/** Slack will retry this delivery (it was not acked): the database did not take it in time. */
export class SlackEventNotStoredError extends Error {
  readonly code = 'slack_event_not_stored';
  constructor(
    readonly eventId: string,
    options?: { cause?: unknown },
  ) {
    super(`Slack event ${eventId} could not be stored; not acknowledged, so Slack retries it`, options);
    this.name = 'SlackEventNotStoredError';
  }
}

interface EventCallback {
  type: 'event_callback';
  event_id: string;
  event?: { type?: string; subtype?: string; bot_id?: string };
}

export const isEventCallback = (body: unknown): body is EventCallback =>
  (body as { type?: unknown })?.type === 'event_callback' &&
  typeof (body as { event_id?: unknown }).event_id === 'string';

/** Only a person's message can need an answer, so only those become inbox rows. */
const inboxPayloadOf = (body: EventCallback) => (isPersonMessage(body.event) ? body.event : undefined);

export type RecordOutcome = 'first' | 'duplicate';

/**
 * Record an Events API delivery before it is acknowledged. `'first'`: stored, process it;
 * `'duplicate'`: another delivery of this event id was stored already, ack and drop it. A claim that
 * has not answered within `timeoutMs` (Slack gives up at 3 s) throws SlackEventNotStoredError so
 * the request is answered 5xx in time; if that claim still lands later, `onLateFirst` gets the
 * event (this worker owns the row, and Slack's retry will only find a duplicate).
 */
export async function recordSlackEvent(
  pool: Pool,
  logger: Logger,
  body: EventCallback,
  opts: { timeoutMs: number; retryNum?: number; retryReason?: string; onLateFirst: () => void },
): Promise<RecordOutcome> {
  const log = logger.child({
    event_id: body.event_id,
    ...(opts.retryNum !== undefined ? { retry_num: opts.retryNum, retry_reason: opts.retryReason } : {}),
  });
  const claim = claimSlackEvent(pool, body.event_id, body.event?.type ?? 'unknown', inboxPayloadOf(body));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), opts.timeoutMs);
  });
  let first: boolean | 'timeout';
  try {
    first = await Promise.race([claim, deadline]);
  } catch (err) {
    log.error({ err }, 'slack event not stored: not acknowledged, Slack will retry');
    throw new SlackEventNotStoredError(body.event_id, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  if (first === 'timeout') {
    log.error({ timeout_ms: opts.timeoutMs }, 'slack event not stored in time: not acknowledged, Slack will retry');
    claim.then(
      (late) => {
        if (!late) return;
        log.warn('slack event stored after its request was refused: processing it here');
        opts.onLateFirst();
      },
      () => undefined,
    );
    throw new SlackEventNotStoredError(body.event_id);
  }
  if (!first) log.info('duplicate slack event ignored');
  return first ? 'first' : 'duplicate';
}
