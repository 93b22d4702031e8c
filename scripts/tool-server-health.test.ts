import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../core/clock.js';
import { testConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { say } from '../agent/testing/fixtures.js';
import { ScriptedModel } from '../agent/testing/scripted-model.js';
import { eventually, soleChild } from '../agent/testing/tool-server-children.js';
import { startProduct, type Product } from './product.js';

// The product as `npm start` wires it (stdio tool-server child, real Postgres), minus Slack.
let db: TestDatabase;
let product: Product;
const healthz = async () => {
  const res = await fetch(`${product.url}/healthz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  db = await createSeededDatabase();
  product = await startProduct({
    config: testConfig({ DATABASE_URL: db.url, SEED_DEMO: 'false', FIXED_NOW: TEST_NOW, BUSINESS_TIMEZONE: TEST_TZ }),
    logger: silentLogger,
    clock: fixedClock(TEST_NOW),
    port: 0,
    model: new ScriptedModel(() => say('We are open weekdays 8 to 6.')),
    slack: false,
  });
});
afterAll(async () => {
  await product?.close();
  await db?.drop();
});

describe('/healthz and the stdio tool server', () => {
  it('answers 503 with the tool server not ok while its child is dead, ' +
    '200 after the automatic restart, and chats work again', async () => {
    const up = await healthz();
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ status: 'ok', database: 'ok' });

    const pid = await soleChild();
    process.kill(pid, 'SIGKILL');
    // A restart means starting node and the tool server again: far longer than noticing the exit.
    await eventually('/healthz to answer 503', async () => ((await healthz()).status === 503 ? true : undefined));
    const down = await healthz();
    expect(down.body).toMatchObject({ status: 'degraded', database: 'ok' });
    expect(down.body.tool_server).not.toBe('ok');
    expect(JSON.stringify(down.body)).not.toContain(db.url);

    const back = await eventually('the restarted tool server', async () => {
      const h = await healthz();
      return h.status === 200 ? h : undefined;
    });
    expect(back.body).toMatchObject({ status: 'ok', database: 'ok', tool_server: 'ok', tool_server_restarts: 1 });
    expect(await soleChild([pid])).not.toBe(pid);

    const chat = await fetch(`${product.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'cus_001', message: 'What are your opening hours?' }),
    });
    const body = (await chat.json()) as Record<string, unknown>;
    expect(chat.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: 'answered' });
  }, 90_000);
});
