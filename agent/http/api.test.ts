import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../core/config.js';
import { call, propose, say } from '../testing/fixtures.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { createApiRouter } from './api.js';
import { send } from './router.js';

const MANAGER = 'manager-key-123';
const DANA = 'dana-key-456';
const CUSTOMER_KEY = 'public-demo-key';
let h: Harness;
let server: Server;
let base: string;
const model = new ScriptedModel((messages) => {
  const last = messages[messages.length - 1]!;
  if (last.name === 'approval_update') return say(`update: ${String(last.content).slice(0, 80)}`);
  if (/ticket/.test(String(last.content))) {
    return propose(
      call('create_ticket', {
        customer_id: 'cus_013',
        subject: 'Broken blind',
        description: String(last.content),
        category: 'damage',
      }),
    );
  }
  return say('We are open weekdays 8 to 6.');
});

async function req(method: string, path: string, body?: unknown, key?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  h = await startHarness({ model });
  const config = testConfig({
    MANAGER_API_KEY: MANAGER,
    MANAGER_API_KEYS: `dana:${DANA}`,
    API_KEY: CUSTOMER_KEY,
    RATE_LIMIT_PER_MINUTE: '1000',
  });
  const router = createApiRouter({ config, pool: h.db.pool, agent: h.agent.service });
  server = createServer(
    (rq, rs) => void router.handle(rq, rs, () => undefined).then((hit) => hit || send(rs, 404, {})),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await h.close();
  await h.db.drop();
});

describe('HTTP API', () => {
  it('chats, lists, shows and decides an approval; only the manager key may decide', async () => {
    const customer = (await h.db.pool.query(`SELECT email FROM customers WHERE id = 'cus_013'`)).rows[0]
      .email as string;
    const chat = await req(
      'POST',
      '/chat',
      { customer, message: 'please open a ticket, the blind broke' },
      CUSTOMER_KEY,
    );
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    expect(chat.body).toMatchObject({ status: 'pending_approval', approvals: [{ tool: 'create_ticket' }] });
    const id = chat.body.approvals[0].id as string;

    const pending = await req('GET', '/approvals?status=pending', undefined, MANAGER);
    expect(pending.body.approvals.map((a: { id: string }) => a.id)).toContain(id);
    expect((await req('GET', `/approvals/${id}`, undefined, MANAGER)).body.audit[0].action).toBe('proposed');

    const forbidden = await req('POST', `/approvals/${id}/approve`, { approver: 'mallory' }, CUSTOMER_KEY);
    expect(forbidden).toMatchObject({ status: 403, body: { error: { code: 'manager_key_required' } } });
    expect((await h.agent.ledger.get(id))!.status).toBe('pending');

    const approved = await req('POST', `/approvals/${id}/approve`, { approver: 'dana' }, DANA);
    expect(approved.status).toBe(200);
    expect(approved.body.approval).toMatchObject({ status: 'executed', approver: 'api:dana' });
    expect(approved.body.reply).toMatch(/^update:/);

    const again = await req('POST', `/approvals/${id}/reject`, { approver: 'sam', reason: 'no' }, MANAGER);
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'already_decided' } } });

    const thread = await req('GET', `/threads/${encodeURIComponent(chat.body.thread_id)}`, undefined, MANAGER);
    expect(thread.body.messages.map((m: { role: string }) => m.role)).toEqual(['customer', 'agent', 'agent']);
    expect(thread.body.audit.map((a: { action: string }) => a.action)).toEqual(['proposed', 'approved', 'executed']);
  });

  it('answers bad input with clear JSON errors and changes nothing', async () => {
    expect((await req('POST', '/chat', { customer: 'cus_013', message: 'hi' })).status).toBe(401);
    expect((await req('POST', '/chat', '{not json', CUSTOMER_KEY)).body.error.code).toBe('invalid_json');
    expect((await req('POST', '/chat', { customer: 'cus_013' }, CUSTOMER_KEY)).body.error).toMatchObject({
      code: 'invalid_request',
      details: { issues: [{ path: 'message' }] },
    });
    expect((await req('POST', '/chat', { customer: 'nobody@example.com', message: 'hi' }, CUSTOMER_KEY)).status).toBe(
      404,
    );
    expect(
      (await req('POST', '/chat', { customer: 'cus_013', message: 'x'.repeat(4001) }, CUSTOMER_KEY)).body.error.code,
    ).toBe('message_too_long');
    expect(
      (await req('POST', '/approvals/00000000-0000-4000-8000-000000000000/approve', { approver: 'dana' }, MANAGER))
        .status,
    ).toBe(404);
    expect((await req('POST', '/approvals/not-a-uuid/approve', { approver: 'dana' }, MANAGER)).status).toBe(404);
    expect((await req('GET', '/approvals?status=bogus', undefined, MANAGER)).status).toBe(400);
    expect((await req('DELETE', '/chat', undefined, CUSTOMER_KEY)).status).toBe(405);
  });

  it('refuses a decision on an expired approval with 410', async () => {
    const chat = await req('POST', '/chat', { customer: 'cus_013', message: 'another ticket please' }, CUSTOMER_KEY);
    const id = chat.body.approvals[0].id as string;
    h.clock.advance(241 * 60_000);
    const late = await req('POST', `/approvals/${id}/approve`, { approver: 'dana' }, MANAGER);
    expect(late).toMatchObject({ status: 410, body: { error: { code: 'expired' } } });
    expect((await h.agent.ledger.get(id))!.status).toBe('pending'); // the sweeper will expire it and tell the customer
  });

  it('rate limits each caller across workers (counted in Postgres)', async () => {
    // Its own named key, so its bucket is not the one the other tests filled; a pinned limiter clock, so it never
    // straddles a window.
    const config = testConfig({ MANAGER_API_KEYS: 'limiter:limiter-test-key', RATE_LIMIT_PER_MINUTE: '3' });
    const router = createApiRouter({
      config,
      pool: h.db.pool,
      agent: h.agent.service,
      now: () => Date.parse('2030-01-07T15:00:10Z'),
    });
    const s = createServer((rq, rs) => void router.handle(rq, rs, () => undefined));
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/approvals`;
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await fetch(url, { headers: { authorization: 'Bearer limiter-test-key' } })).status);
    await new Promise((r) => s.close(r));
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
  });
});
