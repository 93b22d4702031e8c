// End to end in a real browser: `startProduct` in local mode (no Slack tokens) starts the local
// workspace and its console; a customer asks for a change, a manager approves it on the card,
// and we read the outcome on screen.
import { existsSync } from 'node:fs';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { testConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { createToolServer } from '../mcp-server/server.js';
import { startProduct, type Product } from '../scripts/product.js';
import { SENT_PRIVATELY_NOTE } from './replies.js';
import { botTestModel } from './testing/stack.js';

const CHROMIUM = '/usr/bin/chromium';

let db: TestDatabase;
let tools: McpServer;
let product: Product;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: run scripts/ensure-chromium.sh (as root it installs Debian's chromium). ` +
        "The browser test can't run without it.",
    );
  }
  const clock = new ManualClock(TEST_NOW);
  db = await createSeededDatabase({ clock });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  tools = createToolServer({ pool: db.pool, clock, timeZone: TEST_TZ, logger: silentLogger });
  await tools.connect(serverSide);
  product = await startProduct({
    config: testConfig({
      DATABASE_URL: db.url,
      PORT: '0',
      LOCAL_SLACK_PORT: '0',
      SEED_DEMO: 'false',
      BUSINESS_TIMEZONE: TEST_TZ,
      DATA_DIR: `/tmp/bot-e2e-${process.pid}`,
    }),
    logger: silentLogger,
    clock,
    model: botTestModel(),
    transport: clientSide,
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await product?.close();
  await tools?.close().catch(() => undefined);
  await db?.drop();
});

async function actAs(userId: string, channel: 'support' | 'managers' | 'dm') {
  await page.selectOption('[data-testid=user-picker]', userId);
  await page.click(`[data-testid=channel-${channel}]`);
}

/** Open the thread of the top-level message that contains `text`. */
async function openThreadOf(text: string) {
  const msg = page.locator('#list [data-testid^="message-"]', { hasText: text }).first();
  await msg.waitFor({ timeout: 10_000 });
  const ts = (await msg.getAttribute('data-testid'))!.slice('message-'.length);
  await page.click(`[data-testid="thread-reply-${ts}"]`);
  return page.locator('[data-testid=thread-panel]');
}

it('a customer asks for a change, a manager approves it on the card, both see the outcome', async () => {
  expect(product.slack?.consoleUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await page.goto(product.slack!.consoleUrl!);

  // The customer (Maria, linked to cus_001) asks in #support.
  await actAs('U01CUS0001', 'support');
  await page.fill('[data-testid=composer-input]', 'Hi, please change my email to maria.e2e@example.com');
  await page.click('[data-testid=composer-send]');
  const thread = await openThreadOf('maria.e2e@example.com');
  // #support is shared: the thread says where the details went, her DM with the app has them.
  await thread.getByText(SENT_PRIVATELY_NOTE).first().waitFor({ timeout: 10_000 });
  await actAs('U01CUS0001', 'dm');
  await page
    .locator('#list [data-testid^="message-"]', { hasText: 'sent this request to our team for approval' })
    .first()
    .waitFor({ timeout: 10_000 });

  // A manager sees the card in #managers and approves.
  await actAs('U01MGR0001', 'managers');
  const card = page
    .locator('#list [data-testid^="message-"]', { hasText: 'Approval needed: Update customer details' })
    .first();
  await card.waitFor({ timeout: 10_000 });
  await expect(card.innerText()).resolves.toContain('New: maria.e2e@example.com');
  await card.locator('[data-testid=button-approval_approve]').click();

  // The card is updated in place: who approved, the result, no buttons.
  const decided = page.locator('#list [data-testid^="message-"]', { hasText: 'Done:' }).first();
  await decided.waitFor({ timeout: 10_000 });
  const cardText = await decided.innerText();
  expect(cardText).toMatch(/Approved by @dana\.whitfield/);
  expect(cardText).toContain('Updated email.');
  await expect(decided.locator('[data-testid=button-approval_approve]').count()).resolves.toBe(0);

  // The customer is told by DM (the outcome holds her new email); the thread gets the note again.
  await actAs('U01CUS0001', 'dm');
  // (The test planner's "update_customer {…customer_id…}" renders with mrkdwn italics, as in Slack.)
  await page
    .locator('#list')
    .getByText(/^Done: update/)
    .first()
    .waitFor({ timeout: 10_000 });
  await page.screenshot({ path: `/tmp/bot-e2e-${process.pid}.png` }).catch(() => undefined);

  const row = (await db.pool.query(`SELECT email FROM customers WHERE id = 'cus_001'`)).rows[0];
  expect(row.email).toBe('maria.e2e@example.com');
}, 60_000);
