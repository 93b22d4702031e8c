/**
 * `npm run bench`: speed and size of the product as a customer and a manager see it, measured
 * over real HTTP through the local Slack workspace, with two workers on one Postgres (DATABASE_URL
 * or a throw-away embedded one), the offline planner and the tool server as a stdio child per
 * worker, as `npm start` runs them. Prints a table; `--json FILE` writes the numbers.
 *
 * Targets are checked here, not in the test suite (timings in tests would be flaky on shared CI).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ManualClock } from '../core/clock.js';
import { loadConfig, testConfig } from '../core/config.js';
import { freePort } from '../core/embedded-postgres.js';
import { silentLogger } from '../core/logger.js';
import { TEST_NOW, TEST_TZ } from '../core/testing/constants.js';
import { createEvalDatabase, openEvalServer } from '../evals/database.js';
import { localApiUrl, localConnection, LOCAL_IDS, startLocalWorkspace } from '../bot/local-mode.js';
import type { LocalSlack, StoredMessage } from '../local-slack/index.js';
import { DEMO_CUSTOMERS as CUSTOMERS, DEMO_MANAGERS } from '../schema/demo.js';
import { ACTIONS } from '../bot/ids.js';
import { runMain } from '../core/run-main.js';
import { startProduct, type Product } from './product.js';
import { checkpointBytes } from '../agent/checkpoint-size.js';

const { values: flags } = parseArgs({
  options: {
    json: { type: 'string' },
    messages: { type: 'string', default: '40' },
    writes: { type: 'string', default: '15' },
  },
});

/** What we promise, checked at the end (exit 1 when missed). */
const TARGETS = {
  ack_p95_ms: 300, // Slack needs an ack within 3000 ms; we keep a wide margin
  message_to_reply_p95_ms: 2000,
  message_to_card_p95_ms: 2500,
  click_to_executed_p95_ms: 2500,
  checkpoint_bytes_per_turn: 16_000,
};

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]!) : 0;
};
const summary = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 0.5), p95: pct(xs, 0.95), max: pct(xs, 1) });

async function waitFor<T>(fn: () => T | undefined | false | null, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('bench: timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const botReplies = (slack: LocalSlack, ts: string) =>
  slack.messages(LOCAL_IDS.support, { thread_ts: ts }).filter((m) => m.user === LOCAL_IDS.botUserId || m.bot_id);
const cardOf = (slack: LocalSlack, approvalId: string): StoredMessage | undefined =>
  slack.messages(LOCAL_IDS.managers).find((m) => JSON.stringify(m.blocks ?? []).includes(approvalId));
const hasButtons = (m: StoredMessage | undefined) => Boolean(m?.blocks?.some((b) => b.type === 'actions'));

await runMain(async () => {
  const env = loadConfig();
  const server = await openEvalServer(env.DATABASE_URL);
  const clock = new ManualClock(TEST_NOW);
  const db = await createEvalDatabase(server.adminUrl, { clock, timeZone: TEST_TZ });
  const slackPort = await freePort();
  const connection = localConnection({ apiUrl: localApiUrl(slackPort) });
  const workers: Product[] = [];
  let slack: LocalSlack | undefined;
  try {
    for (let i = 0; i < 2; i++) {
      workers.push(
        await startProduct({
          config: testConfig({
            DATABASE_URL: db.url,
            PORT: '0',
            LOCAL_SLACK_PORT: '0',
            SEED_DEMO: 'false',
            BUSINESS_TIMEZONE: TEST_TZ,
            FIXED_NOW: TEST_NOW,
            SWEEPER_INTERVAL_SECONDS: '3600',
            DATA_DIR: `/tmp/support-agent-bench-${process.pid}`,
          }),
          logger: silentLogger,
          clock,
          workerId: `bench-${i}`,
          slack: { connection, cueDelayMs: 5000 },
        }),
      );
    }
    slack = await startLocalWorkspace(connection, {
      port: slackPort,
      eventsUrls: workers.map((w) => `${w.url}/slack/events`),
    });
    const customers = CUSTOMERS.filter((c) => c.slack_user_id);

    // 1. Questions, one at a time: message → reply in thread.
    const replyMs: number[] = [];
    for (let i = 0; i < Number(flags.messages); i++) {
      const user = customers[i % customers.length]!.slack_user_id!;
      const t0 = performance.now();
      const post = await slack.postAsUser(user, LOCAL_IDS.support, 'What are your opening hours on Saturdays?');
      await waitFor(() => botReplies(slack!, post.ts).length > 0);
      replyMs.push(performance.now() - t0);
    }

    // 2. Writes: message → card in #managers, then Approve → card shows it executed.
    const cardMs: number[] = [];
    const executeMs: number[] = [];
    for (let i = 0; i < Number(flags.writes); i++) {
      const c = customers[i % customers.length]!;
      const t0 = performance.now();
      const post = await slack.postAsUser(
        c.slack_user_id!,
        LOCAL_IDS.support,
        `Please change my phone number to 555-301-${String(1000 + i)}`,
      );
      const threadId = `slack:${LOCAL_IDS.support}:${post.ts}`;
      let approvalId: string | undefined;
      while (!approvalId || !cardOf(slack, approvalId)) {
        approvalId ??= (
          await db.pool.query<{ id: string }>(`SELECT id FROM approvals WHERE thread_id = $1`, [threadId])
        ).rows[0]?.id;
        await new Promise((res) => setTimeout(res, 5));
        if (performance.now() - t0 > 20_000) throw new Error('bench: no card');
      }
      cardMs.push(performance.now() - t0);
      const card = cardOf(slack, approvalId)!;
      const t1 = performance.now();
      await slack.click(DEMO_MANAGERS[i % DEMO_MANAGERS.length]!.id, LOCAL_IDS.managers, card.ts, ACTIONS.approve, {
        value: approvalId,
      });
      await waitFor(() => {
        const now = cardOf(slack!, approvalId);
        return now && !hasButtons(now) && /Done|executed/i.test(JSON.stringify(now.blocks));
      });
      executeMs.push(performance.now() - t1);
    }

    // 3. Throughput: 24 customers at once, round-robin over two workers.
    const burst = customers.slice(0, 24);
    const tb = performance.now();
    const posts = await Promise.all(
      burst.map((c) =>
        slack!.postAsUser(c.slack_user_id!, LOCAL_IDS.support, 'Do you bring your own cleaning supplies?'),
      ),
    );
    await waitFor(() => posts.every((p) => botReplies(slack!, p.ts).length > 0), 60_000);
    const burstSeconds = (performance.now() - tb) / 1000;

    // 4. Checkpoint bytes per turn over a 30-turn thread (API path, same graph).
    const agent = workers[0]!.agent.service;
    const threadId = 'bench:checkpoint';
    const bytes = () => checkpointBytes(db.pool, threadId);
    const sizes: number[] = [];
    for (let i = 0; i < 30; i++) {
      await agent.handleMessage({
        threadId,
        customerId: 'cus_001',
        text: `Question ${i}: how much is a deep clean?`,
        source: 'api',
      });
      sizes.push(await bytes());
    }
    const perTurn = Math.round((sizes[29]! - sizes[19]!) / 10);

    const acks = workers.map((w) => w.slack!.bot.ackStats());
    const results = {
      ack_ms: {
        n: acks.reduce((a, s) => a + s.count, 0),
        p50: Math.round(Math.max(...acks.map((s) => s.p50))),
        p95: Math.round(Math.max(...acks.map((s) => s.p95))),
        max: Math.round(Math.max(...acks.map((s) => s.max))),
      },
      message_to_reply_ms: summary(replyMs),
      message_to_card_ms: summary(cardMs),
      click_to_executed_ms: summary(executeMs),
      throughput: {
        customers: burst.length,
        workers: workers.length,
        seconds: Math.round(burstSeconds * 100) / 100,
        messages_per_second: Math.round((burst.length / burstSeconds) * 10) / 10,
      },
      checkpoint_bytes_per_turn: perTurn,
      checkpoint_bytes_after_30_turns: sizes[29],
      rss_mb: Math.round(process.memoryUsage().rss / 1e6),
      database: server.embedded ? 'embedded' : 'DATABASE_URL',
      planner: 'offline',
    };
    const checks = [
      ['ack p95', results.ack_ms.p95, TARGETS.ack_p95_ms],
      ['message → reply p95', results.message_to_reply_ms.p95, TARGETS.message_to_reply_p95_ms],
      ['message → card p95', results.message_to_card_ms.p95, TARGETS.message_to_card_p95_ms],
      ['click → executed p95', results.click_to_executed_ms.p95, TARGETS.click_to_executed_p95_ms],
      ['checkpoint bytes per turn', results.checkpoint_bytes_per_turn, TARGETS.checkpoint_bytes_per_turn],
    ] as const;
    const lines = [
      `slack ack            n=${results.ack_ms.n}  p50 ${results.ack_ms.p50} ms  ` +
        `p95 ${results.ack_ms.p95} ms  max ${results.ack_ms.max} ms`,
      `message → reply      n=${replyMs.length}  p50 ${results.message_to_reply_ms.p50} ms  ` +
        `p95 ${results.message_to_reply_ms.p95} ms`,
      `message → card       n=${cardMs.length}  p50 ${results.message_to_card_ms.p50} ms  ` +
        `p95 ${results.message_to_card_ms.p95} ms`,
      `click → executed     n=${executeMs.length}  p50 ${results.click_to_executed_ms.p50} ms  ` +
        `p95 ${results.click_to_executed_ms.p95} ms`,
      `throughput           ${results.throughput.customers} customers at once on 2 workers: ` +
        `${results.throughput.seconds} s (${results.throughput.messages_per_second} msg/s)`,
      `checkpoint           ${results.checkpoint_bytes_per_turn} bytes per turn (turns 21-30), ` +
        `${results.checkpoint_bytes_after_30_turns} bytes after 30 turns`,
      `memory               ${results.rss_mb} MB RSS (bench process: two workers + local Slack)`,
      '',
      ...checks.map(([name, value, max]) => `${value <= max ? 'ok  ' : 'MISS'} ${name}: ${value} (target ≤ ${max})`),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    if (flags.json) writeFileSync(flags.json, JSON.stringify({ results, targets: TARGETS }, null, 2));
    process.exitCode = checks.every(([, v, max]) => v <= max) ? 0 : 1;
  } finally {
    await slack?.close();
    for (const w of workers) await w.close();
    await db.drop();
    await server.stop();
  }
  // The embedded-postgres library resets the exit code on exit; say it explicitly.
  process.exit(process.exitCode ?? 0);
});
