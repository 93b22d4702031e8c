// The app against a workspace that rate-limits like Slack: it waits out Retry-After instead of losing
// messages, says so at most as info/warn (no stacks), and other failures still fail fast in local mode.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AgentService } from '../agent/service.js';
import { systemClock } from '../core/clock.js';
import { testConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import type { Pool } from '../core/pg-pool.js';
import type { LocalSlack } from '../local-slack/index.js';
import { createSlackBot, type SlackBot } from './app.js';
import { LOCAL_IDS, localApiUrl, localConnection, startLocalWorkspace } from './local-mode.js';
import { freePort } from './testing/stack.js';

const lines: Record<string, unknown>[] = [];
const logger = createLogger(
  { LOG_LEVEL: 'debug' },
  { destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) } },
);

let slack: LocalSlack;
let bot: SlackBot;
let port: number;
beforeAll(async () => {
  port = await freePort();
  const connection = localConnection({ apiUrl: localApiUrl(port) });
  // A burst of thirty, then thirty a second. The limiter's clock stands still until the first 429, so however
  // slowly the 60 calls arrive, the 31st meets a 429; from then on real time refills the bucket within ~1 s.
  let since: number | undefined;
  const now = () => {
    since ??= slack?.apiCalls().some((c) => c.error === 'ratelimited') ? Date.now() : undefined;
    return since === undefined ? 0 : Date.now() - since;
  };
  slack = await startLocalWorkspace(connection, {
    port,
    eventsUrls: ['http://127.0.0.1:9/slack/events'],
    rateLimits: { now, postMessagePerChannel: { perMinute: 1800, burst: 30 } },
  });
  bot = await createSlackBot({
    config: testConfig(),
    pool: {} as Pool,
    agent: { ledger: {} } as unknown as AgentService,
    logger,
    clock: systemClock,
    connection,
  });
});
afterAll(async () => {
  await bot?.stop();
  await slack?.close();
});

it('60 replies to one channel in a burst all arrive, after some 429s, logged without stacks', async () => {
  const texts = Array.from({ length: 60 }, (_, i) => `reply ${i}`);
  await Promise.all(texts.map((text) => bot.app.client.chat.postMessage({ channel: LOCAL_IDS.support, text })));
  expect(
    slack
      .messages(LOCAL_IDS.support)
      .map((m) => m.text)
      .sort(),
  ).toEqual([...texts].sort());
  const limited = slack.apiCalls().filter((c) => c.method === 'chat.postMessage' && c.error === 'ratelimited');
  expect(limited.length).toBeGreaterThan(0);
  const loud = lines.filter((l) => (l.level as number) >= 50);
  expect(loud).toEqual([]);
  const mentions = lines.filter((l) => /rate limit/i.test(String(l.msg)));
  expect(mentions.length).toBeGreaterThan(0);
  for (const l of mentions) {
    expect(l.level as number).toBeLessThanOrEqual(40);
    expect(JSON.stringify(l)).not.toMatch(/\n\s+at /);
  }
}, 20_000);

it('a workspace that is gone still fails a call fast in local mode', async () => {
  await slack.close();
  const t0 = Date.now();
  await expect(bot.app.client.chat.postMessage({ channel: LOCAL_IDS.support, text: 'anyone?' })).rejects.toThrow();
  expect(Date.now() - t0).toBeLessThan(1000);
});
