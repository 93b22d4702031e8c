// The console as a live view, in a real browser: who each person is, following the newest message, and
// saying so while the server cannot be reached.
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalSlack } from './server.js';
import { CUSTOMER, freePort, GUEST, MANAGER, SUPPORT, workspace } from './test-fixtures.js';
import type { LocalSlack } from './types.js';

const CHROMIUM = '/usr/bin/chromium';
let slack: LocalSlack;
let port: number;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const start = async () =>
  startLocalSlack({ ...workspace, port, eventsUrls: [`http://127.0.0.1:${await freePort()}/e`], rateLimits: false });

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: run scripts/ensure-chromium.sh.`);
  port = await freePort();
  slack = await start();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  page = await browser.newPage({ viewport: { width: 1200, height: 600 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${slack.url}/`);
}, 20_000);
afterAll(async () => {
  await browser?.close();
  await slack?.close();
});

it('the picker and each message say who is a manager, a customer or an unlinked guest', async () => {
  const options = await page.getByTestId('user-picker').locator('option').allInnerTexts();
  expect(options).toEqual([
    'Carla Customer (@carla) · customer',
    'Maria Manager (@maria) · manager',
    'Gus Guest (@gus) · unlinked guest',
  ]);
  const fromManager = await slack.postAsUser(MANAGER, SUPPORT, 'hi from a manager');
  const fromGuest = await slack.postAsUser(GUEST, SUPPORT, 'hi from a guest');
  await page.getByTestId('channel-support').click();
  await page.getByTestId(`role-${fromManager.ts}`).waitFor();
  expect(await page.getByTestId(`role-${fromManager.ts}`).textContent()).toBe('manager');
  expect(await page.getByTestId(`role-${fromGuest.ts}`).textContent()).toBe('unlinked guest');
});

it('follows the newest message to the bottom of the list', async () => {
  await page.getByTestId('channel-support').click();
  let last = '';
  for (let i = 0; i < 40; i++) last = (await slack.postAsUser(CUSTOMER, SUPPORT, `line ${i}`)).ts;
  const newest = page.getByTestId(`message-${last}`);
  await newest.waitFor();
  await expect
    .poll(() =>
      newest.evaluate((el) => {
        const list = el.parentElement!;
        return list.scrollHeight > list.clientHeight && list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
      }),
    )
    .toBe(true);
  expect(pageErrors).toEqual([]);
});

it('shows a banner while the server cannot be reached, and drops it when it is back', async () => {
  const banner = page.getByTestId('offline-banner');
  expect(await banner.isVisible()).toBe(false);
  await slack.close();
  await banner.waitFor({ state: 'visible', timeout: 5000 });
  expect(await banner.textContent()).toContain("Can't reach the local Slack server");
  slack = await start();
  await banner.waitFor({ state: 'hidden', timeout: 5000 });
});
