// Sends signed requests to the app's endpoints the way Slack does: round-robin across workers
// (like a load balancer), a hard ack deadline, and Events API retries with X-Slack-Retry-* headers.
import { request } from 'node:http';
import { signSlackRequest } from './signing.js';
import type { DeliveryRecord, ForgeOpts, LocalSlackLogger } from './types.js';

export interface AttemptResult {
  status: number;
  body: string;
  noRetry: boolean;
  error?: 'http_timeout' | 'connection_failed';
}

/**
 * One POST with a hard deadline. A fresh connection each time (no keep-alive pool), so an abandoned
 * slow request cannot hold the app's server open after the test or the workspace is done with it.
 */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = request(url, { method: 'POST', headers: { ...headers, Connection: 'close' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          noRetry: res.headers['x-slack-no-retry'] === '1',
        }),
      );
      res.on('error', () => done({ status: 0, body: '', noRetry: false, error: 'connection_failed' }));
    });
    const timer = setTimeout(() => {
      done({ status: 0, body: '', noRetry: false, error: 'http_timeout' });
      req.destroy();
    }, timeoutMs);
    signal.addEventListener('abort', () => {
      done({ status: 0, body: '', noRetry: false, error: 'connection_failed' });
      req.destroy();
    });
    req.on('error', () => done({ status: 0, body: '', noRetry: false, error: 'connection_failed' }));
    req.end(body);
  });
}

interface DelivererOptions {
  urls: string[];
  signingSecret: string;
  ackTimeoutMs: number;
  retryDelaysMs: number[];
  retryOnFailure: boolean;
  logger: LocalSlackLogger;
}

export interface EventSendOpts extends ForgeOpts {
  via?: number;
}

export class Deliverer {
  private next = 0;
  /** Workers' endpoints by `via`; a worker that left keeps its slot, empty, so every `via` keeps its meaning. */
  private readonly urls: (string | undefined)[];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;
  readonly log: DeliveryRecord[] = [];

  constructor(private readonly o: DelivererOptions) {
    if (o.urls.length === 0) throw new Error('local-slack: eventsUrls must name at least one endpoint');
    this.urls = [...o.urls];
  }

  /** A worker joins the round-robin (again: its old slot). */
  addUrl(url: string): number {
    const known = this.urls.indexOf(url);
    if (known >= 0) return known;
    const free = this.urls.indexOf(undefined);
    if (free >= 0) {
      this.urls[free] = url;
      return free;
    }
    return this.urls.push(url) - 1;
  }

  removeUrl(url: string): void {
    const i = this.urls.indexOf(url);
    if (i >= 0) this.urls[i] = undefined;
  }

  private pick(via?: number): number {
    if (via !== undefined) {
      if (!Number.isInteger(via) || this.urls[via] === undefined) throw new Error(`local-slack: no eventsUrls[${via}]`);
      return via;
    }
    for (let n = 0; n < this.urls.length; n++) {
      const i = this.next % this.urls.length;
      this.next += 1;
      if (this.urls[i] !== undefined) return i;
    }
    throw new Error('local-slack: no worker to deliver to');
  }

  private async attempt(
    via: number,
    body: string,
    contentType: string,
    extraHeaders: Record<string, string>,
    forge: ForgeOpts,
  ): Promise<AttemptResult> {
    const ts = forge.timestampSec ?? Math.floor(Date.now() / 1000);
    const sig = signSlackRequest(forge.signingSecret ?? this.o.signingSecret, body, ts);
    const headers = {
      'Content-Type': contentType,
      'Content-Length': String(Buffer.byteLength(body)),
      ...sig,
      ...extraHeaders,
    };
    const ctrl = new AbortController();
    this.inFlight.add(ctrl);
    try {
      return await post(this.urls[via] ?? '', headers, body, this.o.ackTimeoutMs, ctrl.signal);
    } finally {
      this.inFlight.delete(ctrl);
    }
  }

  private record(r: Omit<DeliveryRecord, 'url'>, res: AttemptResult): void {
    this.log.push({ ...r, url: this.urls[r.via] ?? '', status: res.status, body: res.body, error: res.error });
  }

  /** Interactivity payloads: one attempt, never retried (Slack shows the user an error instead). */
  async interaction(payload: { type: string }, via?: number): Promise<AttemptResult> {
    const index = this.pick(via);
    const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const res = await this.attempt(index, body, 'application/x-www-form-urlencoded', {}, {});
    this.record({ kind: 'interaction', id: payload.type, via: index, status: res.status, body: res.body }, res);
    return res;
  }

  /**
   * Events API delivery. Resolves after the first attempt; failed attempts are retried in the background
   * unless the delivery was forged (real Slack would re-sign, so repeating a forgery proves nothing).
   */
  async event(eventId: string, envelope: object, opts: EventSendOpts = {}): Promise<AttemptResult> {
    const body = JSON.stringify(envelope);
    const index = this.pick(opts.via);
    const res = await this.attempt(index, body, 'application/json', {}, opts);
    this.record({ kind: 'event', id: eventId, via: index, status: res.status, body: res.body }, res);
    const forged = opts.signingSecret !== undefined || opts.timestampSec !== undefined;
    if (this.o.retryOnFailure && !forged && this.failed(res)) this.scheduleRetry(eventId, body, 1, res, opts.via);
    return res;
  }

  /** A single hand-made retry, for tests of the app's de-duplication. */
  async retry(
    eventId: string,
    envelope: object,
    retryNum: number,
    reason: string,
    via?: number,
  ): Promise<AttemptResult> {
    const index = this.pick(via);
    const headers = { 'X-Slack-Retry-Num': String(retryNum), 'X-Slack-Retry-Reason': reason };
    const res = await this.attempt(index, JSON.stringify(envelope), 'application/json', headers, {});
    this.record(
      { kind: 'event', id: eventId, via: index, retryNum, retryReason: reason, status: res.status, body: res.body },
      res,
    );
    return res;
  }

  private failed(res: AttemptResult): boolean {
    if (res.status >= 200 && res.status < 300) return false;
    return !res.noRetry;
  }

  private scheduleRetry(eventId: string, body: string, retryNum: number, prev: AttemptResult, via?: number): void {
    const delay = this.o.retryDelaysMs[retryNum - 1];
    if (delay === undefined || this.closed) return;
    const reason = prev.error ?? 'http_error';
    const t = setTimeout(() => {
      this.timers.delete(t);
      void (async () => {
        const index = this.pick(via);
        const headers = { 'X-Slack-Retry-Num': String(retryNum), 'X-Slack-Retry-Reason': reason };
        const res = await this.attempt(index, body, 'application/json', headers, {});
        this.record(
          { kind: 'event', id: eventId, via: index, retryNum, retryReason: reason, status: res.status, body: res.body },
          res,
        );
        if (this.failed(res)) this.scheduleRetry(eventId, body, retryNum + 1, res, via);
        else this.o.logger.info(`local-slack: event ${eventId} delivered on retry ${retryNum}`);
      })();
    }, delay);
    this.timers.add(t);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const c of this.inFlight) c.abort();
  }
}
