// Drives the console in a real browser (Debian's Chromium, installed by scripts/ensure-chromium.sh).
import { existsSync } from 'node:fs';
import type { App, BlockAction, ViewSubmitAction } from '@slack/bolt';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER, MANAGER, MANAGERS, startStack, SUPPORT } from './test-fixtures.js';
import type { LocalSlack } from './types.js';

const CHROMIUM = '/usr/bin/chromium';

const register = (app: App) => {
  app.message(/refund/, async ({ message, client, say }) => {
    if (message.subtype !== undefined) return;
    await client.chat.postMessage({
      channel: MANAGERS,
      text: 'Refund request',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Refund request' } },
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*Amount*\n50' },
            { type: 'mrkdwn', text: `*From* <@${CUSTOMER}>` },
          ],
        },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'approve', style: 'primary', text: { type: 'plain_text', text: 'Approve' } },
            { type: 'button', action_id: 'edit', text: { type: 'plain_text', text: 'Edit' } },
          ],
        },
      ],
    });
    await say({ text: 'Sent to a manager.', thread_ts: message.ts });
  });
  app.action<BlockAction>('edit', async ({ ack, body, client }) => {
    await ack();
    await client.views.open({
      trigger_id: body.trigger_id,
      view: {
        type: 'modal',
        callback_id: 'e',
        title: { type: 'plain_text', text: 'Edit' },
        submit: { type: 'plain_text', text: 'Save' },
        blocks: [
          {
            type: 'input',
            block_id: 'amount',
            label: { type: 'plain_text', text: 'Amount' },
            element: { type: 'number_input', action_id: 'v', is_decimal_allowed: false, initial_value: '50' },
          },
          {
            type: 'input',
            block_id: 'reason',
            label: { type: 'plain_text', text: 'Reason' },
            element: { type: 'plain_text_input', action_id: 'v', multiline: true },
          },
        ],
      },
    });
  });
  app.view<ViewSubmitAction>('e', async ({ ack, view }) => {
    if (Number(view.state.values.amount?.v?.value) > 1000)
      return ack({ response_action: 'errors', errors: { amount: 'Too much' } });
    await ack();
  });
  app.action<BlockAction>('approve', async ({ ack, respond }) => {
    await ack();
    await respond({ replace_original: true, text: 'Approved' });
  });
};

describe('console in a browser', () => {
  let slack: LocalSlack;
  let close: () => Promise<void>;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: run scripts/ensure-chromium.sh.`);
    ({ slack, close } = await startStack([register]));
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
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${slack.url}/`);
  });
  afterAll(async () => {
    await browser?.close();
    await close?.();
  });

  it('customer posts (escaped like the Slack client) and reads the bot reply in the thread', async () => {
    await page.getByTestId('user-picker').selectOption(CUSTOMER);
    await page.getByTestId('channel-support').click();
    await page.getByTestId('composer-input').fill('a refund please <img src=x onerror=alert(1)> @maria');
    await page.getByTestId('composer-send').click();
    const [root] = await slack.waitFor(() => slack.messages(SUPPORT).length === 1 && slack.messages(SUPPORT));
    expect(root!.text).toBe(`a refund please &lt;img src=x onerror=alert(1)&gt; <@${MANAGER}>`);
    await page.getByTestId(`thread-reply-${root!.ts}`).click();
    await page.getByTestId('thread-panel').getByText('Sent to a manager.').waitFor();
    await page.getByTestId(`thread-message-${root!.ts}`).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.getByTestId(`message-${root!.ts}`).innerText()).toContain('<img src=x onerror=alert(1)> @maria');
  });

  it('manager edits the card in a modal with inline errors, then approves', async () => {
    await page.getByTestId('user-picker').selectOption(MANAGER);
    await page.getByTestId('channel-managers').click();
    const card = await slack.waitFor(() => slack.messages(MANAGERS)[0]);
    const cardEl = page.getByTestId(`message-${card.ts}`);
    await cardEl.getByTestId('button-edit').click();
    await page.getByTestId('modal').waitFor();
    await page.getByTestId('input-amount').fill('5000');
    await page.getByTestId('input-reason').fill('vip');
    await page.getByTestId('modal-submit').click();
    await page.getByTestId('modal-error-amount').waitFor();
    expect(await page.getByTestId('modal-error-amount').innerText()).toBe('Too much');
    expect(await page.getByTestId('input-reason').inputValue()).toBe('vip');
    await page.getByTestId('input-amount').fill('80');
    await page.getByTestId('modal-submit').click();
    await page.getByTestId('modal').waitFor({ state: 'detached' });
    await cardEl.getByTestId('button-approve').click();
    await cardEl.getByText('Approved').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
