// How Slack requests get in: verified signature first, an Events API delivery stored before it is
// acknowledged, everything else exactly as Bolt's own receivers do it.
//
// Why a wrapper around Bolt's receivers and not a receiver of our own: interactivity depends on
// details of Bolt's HTTPReceiver (the ack carries the response body, `response_action: errors`
// inline, the 3 s no-ack answer, 400 for a malformed body, 413, ssl_check, url_verification), and
// reimplementing them is how they drift. Bolt's receivers use exactly one thing of the app,
// `processEvent(event)`, with `event.ack` not yet called, and the App acks an Events API delivery
// itself right before its global middleware. So interposing on processEvent is the one point
// where an event can be stored before the ack; it works the same for HTTP and Socket Mode.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import {
  HTTPModuleFunctions,
  HTTPReceiver,
  SocketModeReceiver,
  defaultBodyLimit,
  isRawBodyError,
  type App,
  type Logger as BoltLogger,
  type Receiver,
  type ReceiverEvent,
  type ReceiverProcessEventErrorHandlerArgs,
} from '@slack/bolt';
import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import { storableJson } from '../core/storable-text.js';
import { countSlackEvent } from '../core/metrics.js';
import { isEventCallback, recordSlackEvent, SlackEventNotStoredError } from './dedupe.js';

/** Slack's rule: a request whose timestamp is more than 5 minutes off, either way, is refused. */
export const SIGNATURE_TOLERANCE_SEC = 5 * 60;

/** Slack's ack deadline is 3 s: a claim still unanswered after this is refused with a 5xx in time. */
export const DEFAULT_CLAIM_TIMEOUT_MS = 2000;

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing_headers' | 'bad_timestamp' | 'timestamp_out_of_range' | 'bad_signature' };

/**
 * Slack request signing v0: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{raw body}`. Bolt 5.1's
 * verifySlackRequest refuses only old timestamps; a request signed in the future (a captured
 * signature kept for later, or a skewed signer) is refused here too.
 */
export function checkSlackSignature(opts: {
  signingSecret: string;
  rawBody: Buffer | string;
  timestamp: string | string[] | undefined;
  signature: string | string[] | undefined;
  nowMs?: number;
}): SignatureCheck {
  const { timestamp, signature } = opts;
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return { ok: false, reason: 'missing_headers' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'bad_timestamp' };
  const nowSec = Math.floor((opts.nowMs ?? Date.now()) / 1000);
  if (Math.abs(nowSec - Number(timestamp)) > SIGNATURE_TOLERANCE_SEC)
    return { ok: false, reason: 'timestamp_out_of_range' };
  const m = /^v0=([0-9a-f]{64})$/.exec(signature);
  if (!m) return { ok: false, reason: 'bad_signature' };
  const expected = createHmac('sha256', opts.signingSecret).update(`v0:${timestamp}:`).update(opts.rawBody).digest();
  // Both are 32 bytes here (the regex fixed the length), as timingSafeEqual requires.
  return timingSafeEqual(Buffer.from(m[1]!, 'hex'), expected) ? { ok: true } : { ok: false, reason: 'bad_signature' };
}

/**
 * Read the body and verify the signature before Bolt sees the request. Answers 401 (bad or
 * out-of-range signature) or 413 itself and returns false; otherwise leaves the body on
 * `req.rawBody`, where Bolt's HTTPReceiver takes it instead of reading the stream again (it then
 * verifies once more, which a valid request passes).
 */
export async function acceptSignedRequest(
  req: IncomingMessage,
  res: ServerResponse,
  opts: { signingSecret: string; logger: Logger; nowMs?: () => number },
): Promise<boolean> {
  let rawBody: Buffer;
  try {
    rawBody = (await HTTPModuleFunctions.bufferIncomingMessage(req, defaultBodyLimit)).rawBody;
  } catch (err) {
    const tooLarge = isRawBodyError(err) && (err as { statusCode: number }).statusCode === 413;
    opts.logger.warn({ err }, tooLarge ? 'slack request body too large' : 'slack request body unreadable');
    res.writeHead(tooLarge ? 413 : 400).end();
    return false;
  }
  // Slack's ssl_check carries no signature; Bolt answers it and drops anything sent along with it.
  if (
    req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
    parseQuery(rawBody.toString()).ssl_check === '1'
  )
    return true;
  const check = checkSlackSignature({
    signingSecret: opts.signingSecret,
    rawBody,
    timestamp: req.headers['x-slack-request-timestamp'],
    signature: req.headers['x-slack-signature'],
    nowMs: opts.nowMs?.(),
  });
  if (!check.ok) {
    opts.logger.warn(
      { reason: check.reason, retry_num: req.headers['x-slack-retry-num'] },
      'slack request refused: signature not verified',
    );
    res.writeHead(401).end();
    return false;
  }
  return true;
}

/**
 * Bolt's receiver, with every Events API delivery recorded in slack_events before the App acks
 * it. Not stored (database unreachable, or no answer within `claimTimeoutMs`): processEvent throws
 * SlackEventNotStoredError, so nothing is acked (HTTP: 503 via `httpErrorHandler`; Socket Mode: the
 * envelope stays unacked) and Slack retries. A duplicate is acked and dropped. Every payload,
 * interactivity included, is made storable first (no NUL, no lone surrogate), so listeners, the
 * agent and the database all see the same cleaned text.
 */
export class StoreFirstReceiver implements Receiver {
  private readonly claimTimeoutMs: number;
  private readonly logger: Logger;

  constructor(
    private readonly inner: Receiver,
    private readonly opts: { pool: Pool; logger: Logger; claimTimeoutMs?: number },
  ) {
    this.claimTimeoutMs = opts.claimTimeoutMs ?? DEFAULT_CLAIM_TIMEOUT_MS;
    this.logger = opts.logger;
  }

  init(app: App): void {
    const gate = { processEvent: (event: ReceiverEvent) => this.admit(app, event) };
    this.inner.init(gate as unknown as App);
  }

  start(...args: unknown[]): Promise<unknown> {
    return this.inner.start(...args);
  }

  stop(...args: unknown[]): Promise<unknown> {
    return this.inner.stop(...args);
  }

  private async admit(app: App, event: ReceiverEvent): Promise<void> {
    const body = storableJson(event.body);
    countSlackEvent(body);
    if (!isEventCallback(body)) return app.processEvent({ ...event, body });
    const outcome = await recordSlackEvent(this.opts.pool, this.logger, body, {
      timeoutMs: this.claimTimeoutMs,
      retryNum: event.retryNum,
      retryReason: event.retryReason,
      onLateFirst: () => {
        // The request was already answered 5xx; the ack has nobody left to reach.
        void app.processEvent({ ...event, body, ack: async () => undefined }).catch((err) => {
          this.logger.error({ err, event_id: body.event_id }, 'late slack event failed');
        });
      },
    });
    if (outcome === 'duplicate') return event.ack();
    await app.processEvent({ ...event, body });
  }
}

/**
 * HTTPReceiver's processEventErrorHandler: an event that could not be stored gets a 503 (Slack
 * retries any non-2xx); everything else keeps Bolt's default handling.
 */
export async function httpErrorHandler(args: ReceiverProcessEventErrorHandlerArgs): Promise<boolean> {
  if (args.error instanceof SlackEventNotStoredError) {
    if (!args.response.headersSent)
      args.response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"slack_event_not_stored"}');
    return true; // answered: Bolt's no-ack timer must not answer again
  }
  return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
}

/**
 * The receiver of a Bolt app: HTTP (the product server calls `http.requestListener` after
 * `acceptSignedRequest`) or Socket Mode (`socket`, started by `app.start()`), behind the same
 * StoreFirstReceiver either way.
 */
export function createSlackReceiver(
  c: { mode: 'socket' | 'http' | 'local'; signingSecret: string; appToken?: string },
  deps: { endpoint: string; pool: Pool; logger: Logger; boltLogger: BoltLogger; claimTimeoutMs?: number },
): { receiver: StoreFirstReceiver; http?: HTTPReceiver; socket?: SocketModeReceiver } {
  const store = { pool: deps.pool, logger: deps.logger, claimTimeoutMs: deps.claimTimeoutMs };
  if (c.mode === 'socket') {
    if (!c.appToken) throw new Error('Socket Mode needs an app token');
    const socket = new SocketModeReceiver({ appToken: c.appToken, logger: deps.boltLogger });
    return { receiver: new StoreFirstReceiver(socket, store), socket };
  }
  const http = new HTTPReceiver({
    signingSecret: c.signingSecret,
    endpoints: deps.endpoint,
    // The HTTP answer does not wait for the work: the event is stored first (StoreFirstReceiver),
    // so Slack gets its 200 within milliseconds and a crash after it leaves an inbox row behind.
    processBeforeResponse: false,
    processEventErrorHandler: httpErrorHandler,
    logger: deps.boltLogger,
  });
  return { receiver: new StoreFirstReceiver(http, store), http };
}
