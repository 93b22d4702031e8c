import { LogLevel, webApi, type Logger as BoltLogger } from '@slack/bolt';

export type SlackReadiness =
  | { ok: true; state: 'ok' }
  /** `checking`: no answer yet from the first probe; `unreachable`: the last probe failed. */
  | { ok: false; state: 'checking' | 'unreachable'; error?: string };

/**
 * Whether Slack answers, for readiness: one cheap call (auth.test) at most once per `maxAgeMs`,
 * whatever the number of readiness requests, so a load balancer polling every second costs Slack
 * one call a minute (auth.test is rate limited like any method). A check never waits longer than
 * it is given: a slow probe keeps running and its answer serves the next check, and meanwhile the
 * last known answer stands.
 */
export class SlackProbe {
  private last?: { result: SlackReadiness; at: number };
  private inflight?: Promise<void>;
  private readonly now: () => number;

  constructor(
    private readonly call: () => Promise<void>,
    private readonly opts: { maxAgeMs: number; now?: () => number },
  ) {
    this.now = opts.now ?? Date.now;
  }

  async check(waitMs: number): Promise<SlackReadiness> {
    if (this.last && this.now() - this.last.at < this.opts.maxAgeMs) return this.last.result;
    this.inflight ??= this.probe().finally(() => (this.inflight = undefined));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.inflight, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    return this.last?.result ?? { ok: false, state: 'checking' };
  }

  private async probe(): Promise<void> {
    let result: SlackReadiness;
    try {
      await this.call();
      result = { ok: true, state: 'ok' };
    } catch (err) {
      const e = err as { data?: { error?: string }; message?: string };
      result = { ok: false, state: 'unreachable', error: e.data?.error ?? e.message ?? String(err) };
    }
    this.last = { result, at: this.now() };
  }
}

// The Web API client logs a failed call itself; the probe's answer is what readiness reports.
const quiet: BoltLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};

/**
 * auth.test through a client of its own with a short leash: the app's client retries a failing
 * network for about half an hour, which would hold the probe (and every later one) that long.
 */
export function webApiProbe(c: { token?: string; apiUrl: string; timeoutMs?: number }): () => Promise<void> {
  const client = new webApi.WebClient(c.token, {
    slackApiUrl: c.apiUrl,
    retryConfig: { retries: 0 },
    timeout: c.timeoutMs ?? 3000,
    logger: quiet,
  });
  return async () => {
    await client.auth.test();
  };
}
