// Two products started on one machine in local mode, on one database and one LOCAL_SLACK_PORT: the second
// joins the first one's workspace instead of failing on the port, and either can take any event or click.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { testConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import type { LocalSlack } from '../local-slack/index.js';
import { createToolServer } from '../mcp-server/server.js';
import { startProduct, type Product } from './product.js';
import { ACTIONS } from '../bot/ids.js';
import { LOCAL_IDS } from '../bot/local-mode.js';
import { botRepliesIn, botTestModel, cardFor, freePort, hasButtons, toldCustomer } from '../bot/testing/stack.js';

let db: TestDatabase;
const workers: Product[] = [];
const toolServers: McpServer[] = [];
let slack: LocalSlack;
let slackPort: number;

async function worker(i: number): Promise<Product> {
  const clock = new ManualClock(TEST_NOW);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const tools = createToolServer({ pool: db.pool, clock, timeZone: TEST_TZ, logger: silentLogger });
  await tools.connect(serverSide);
  toolServers.push(tools);
  return startProduct({
    config: testConfig({
      DATABASE_URL: db.url,
      PORT: '0',
      LOCAL_SLACK_PORT: String(slackPort),
      SEED_DEMO: 'false',
      BUSINESS_TIMEZONE: TEST_TZ,
      SWEEPER_INTERVAL_SECONDS: '3600',
      DATA_DIR: `/tmp/bot-test-${process.pid}`,
    }),
    logger: silentLogger.child({ worker: i }),
    clock,
    model: botTestModel(),
    transport: clientSide,
    workerId: `worker-${i}`,
    slack: { cueDelayMs: 5000, localTiming: { ackTimeoutMs: 3000, retryDelaysMs: [50, 100, 200] } },
  });
}

beforeAll(async () => {
  db = await createSeededDatabase({ clock: new ManualClock(TEST_NOW) });
  slackPort = await freePort();
  workers.push(await worker(0));
  workers.push(await worker(1));
  slack = workers[0]!.slack!.local!;
});
afterAll(async () => {
  for (const w of workers.reverse()) await w.close();
  for (const t of toolServers) await t.close().catch(() => undefined);
  await db?.drop();
});

it('the second worker joins the first one`s workspace and shows the same console', () => {
  expect(workers[1]!.slack!.local).toBeUndefined();
  expect(workers[1]!.slack!.consoleUrl).toBe(workers[0]!.slack!.consoleUrl);
  expect(workers[1]!.slack!.consoleUrl).toBe(`http://127.0.0.1:${slackPort}/`);
});

it('a card posted by worker 0 is approved through worker 1, which updates it', async () => {
  const post = await slack.postAsUser('U01CUS0004', LOCAL_IDS.support, 'ticket: the porch light flickers', { via: 0 });
  await slack.waitFor(() => botRepliesIn(slack, LOCAL_IDS.support, post.ts)[0], 8000);
  const thread = `slack:${LOCAL_IDS.support}:${post.ts}`;
  let approvalId = '';
  for (const deadline = Date.now() + 8000; !approvalId && Date.now() < deadline; ) {
    const row = (await db.pool.query(`SELECT id, card_ts FROM approvals WHERE thread_id = $1`, [thread])).rows[0];
    if (row?.card_ts) approvalId = row.id as string;
    else await new Promise((r) => setTimeout(r, 20));
  }
  const card = cardFor(slack, LOCAL_IDS.managers, approvalId)!;
  await slack.click('U01MGR0001', LOCAL_IDS.managers, card.ts, ACTIONS.approve, { via: 1 });
  await slack.waitFor(
    () => toldCustomer(slack, 'U01CUS0004', LOCAL_IDS.support, post.ts).find((m) => m.text.startsWith('Done:')),
    8000,
  );
  await slack.waitFor(() => !hasButtons(cardFor(slack, LOCAL_IDS.managers, approvalId)), 8000);
  const interaction = slack.deliveries().find((d) => d.kind === 'interaction');
  expect(interaction?.via).toBe(1);
  expect(interaction?.url).toBe(`${workers[1]!.url}/slack/events`);
  expect(slack.apiCalls().filter((c) => !c.ok && c.error !== 'ratelimited')).toEqual([]);
});

it('a worker that stops leaves the rotation: events go to the one still running', async () => {
  await workers.pop()!.close();
  const before = slack.deliveries().length;
  const a = await slack.postAsUser('U01CUS0005', LOCAL_IDS.support, 'hello there');
  const b = await slack.postAsUser('U01CUS0005', LOCAL_IDS.support, 'hello again');
  expect([a.status, b.status]).toEqual([200, 200]);
  expect(
    new Set(
      slack
        .deliveries()
        .slice(before)
        .map((d) => d.via),
    ),
  ).toEqual(new Set([0]));
});
