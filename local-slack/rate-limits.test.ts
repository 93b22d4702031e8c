// Slack's rate limits in the local workspace: per-method tiers and chat.postMessage's per-channel limit,
// answered with HTTP 429, Retry-After and {ok:false,error:'ratelimited'}, on a clock the test moves.
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limits.js';
import { startLocalSlack } from './server.js';
import { freePort, MANAGERS, SUPPORT, TOKEN, workspace } from './test-fixtures.js';
import type { LocalSlack } from './types.js';

describe('RateLimiter', () => {
  it('lets a tier burst, then refuses with the seconds until the next call fits', () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now, tiers: { 3: { perMinute: 50, burst: 3 } } });
    const take = () => limiter.take('chat.update', {});
    expect([take(), take(), take()]).toEqual([undefined, undefined, undefined]);
    expect(take()).toBe(2); // 50/min: one call every 1.2 s, Retry-After rounds up
    now += 1200;
    expect(take()).toBeUndefined();
    expect(take()).toBe(2);
  });

  it('counts each method on its own, and methods by their tier', () => {
    const limiter = new RateLimiter({ now: () => 0, tiers: { 2: { perMinute: 20, burst: 1 } } });
    expect(limiter.take('reactions.remove', {})).toBeUndefined();
    expect(limiter.take('reactions.remove', {})).toBe(3);
    expect(limiter.take('usergroups.users.list', {})).toBeUndefined(); // also Tier 2, its own budget
    expect(limiter.take('users.info', {})).toBeUndefined(); // Tier 4
  });

  it('limits chat.postMessage per channel, about one a second with a short burst', () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now, postMessagePerChannel: { perMinute: 60, burst: 2 } });
    const post = (channel: string) => limiter.take('chat.postMessage', { channel });
    expect([post('C1'), post('C1'), post('C1')]).toEqual([undefined, undefined, 1]);
    expect(post('C2')).toBeUndefined();
    now += 1000;
    expect(post('C1')).toBeUndefined();
  });

  it('never refuses an unknown method (Slack answers unknown_method instead)', () => {
    const limiter = new RateLimiter({ now: () => 0 });
    for (let i = 0; i < 500; i++) expect(limiter.take('no.such.method', {})).toBeUndefined();
  });
});

describe('over HTTP', () => {
  let slack: LocalSlack | undefined;
  afterEach(async () => {
    await slack?.close();
    slack = undefined;
  });

  const call = (method: string, body: Record<string, unknown>) =>
    fetch(`${slack!.apiUrl}${method}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers like Slack: 429, Retry-After in seconds, ratelimited, and nothing posted', async () => {
    let now = 0;
    slack = await startLocalSlack({
      ...workspace,
      eventsUrls: [`http://127.0.0.1:${await freePort()}/slack/events`],
      rateLimits: { now: () => now, postMessagePerChannel: { perMinute: 60, burst: 1 } },
    });
    expect((await call('chat.postMessage', { channel: SUPPORT, text: 'one' })).status).toBe(200);
    const limited = await call('chat.postMessage', { channel: SUPPORT, text: 'two' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toEqual({ ok: false, error: 'ratelimited' });
    expect(slack.messages(SUPPORT).map((m) => m.text)).toEqual(['one']);
    expect((await call('chat.postMessage', { channel: MANAGERS, text: 'elsewhere' })).status).toBe(200);
    now += 1000;
    expect((await call('chat.postMessage', { channel: SUPPORT, text: 'three' })).status).toBe(200);
    expect(slack.apiCalls().filter((c) => c.error === 'ratelimited')).toHaveLength(1);
  });

  it('limits by default (300 posts at once to one channel are not all accepted), and can be switched off', async () => {
    slack = await startLocalSlack({ ...workspace, eventsUrls: [`http://127.0.0.1:${await freePort()}/e`] });
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => call('chat.postMessage', { channel: SUPPORT, text: `m${i}` })),
    ).then((rs) => rs.map((r) => r.status));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(250);
    await slack.close();
    slack = await startLocalSlack({
      ...workspace,
      eventsUrls: [`http://127.0.0.1:${await freePort()}/e`],
      rateLimits: false,
    });
    const off = await Promise.all(
      Array.from({ length: 300 }, (_, i) => call('chat.postMessage', { channel: SUPPORT, text: `m${i}` })),
    );
    expect(off.every((r) => r.status === 200)).toBe(true);
  });
});
