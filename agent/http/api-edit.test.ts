// A manager's edit over the HTTP API is rehearsed before it is accepted: a closed day or another
// customer is refused with 422 while the approval stays pending, and a plain approve then works.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../core/config.js';
import { LedgerError } from '../approvals/ledger.js';
import type { AgentService } from '../service.js';
import { call, count, freeStart, propose, say } from '../testing/fixtures.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { createApiRouter } from './api.js';
import { send } from './router.js';

const MANAGER = 'manager-key-123';
const CUSTOMER_KEY = 'public-demo-key';
const SUNDAY_10 = '2026-12-13T10:00:00-05:00';
let h: Harness;
let server: Server;
let base: string;
let start: string;

const model = new ScriptedModel((messages) => {
  const last = messages[messages.length - 1]!;
  if (last.name === 'approval_update') return say(`update: ${String(last.content).slice(0, 120)}`);
  if (last.getType() === 'human' && /book me/.test(String(last.content))) {
    return propose(call('book_slot', { customer_id: 'cus_013', service_id: 'svc_handyman_hour', start_time: start }));
  }
  return say('ok');
});

async function req(method: string, path: string, body?: unknown, key?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  h = await startHarness({ model });
  const config = testConfig({ MANAGER_API_KEY: MANAGER, API_KEY: CUSTOMER_KEY, RATE_LIMIT_PER_MINUTE: '1000' });
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

async function proposedBooking() {
  start = await freeStart(h.db.pool, 1);
  const chat = await req('POST', '/chat', { customer: 'cus_013', message: 'book me a handyman' }, CUSTOMER_KEY);
  expect(chat.status, JSON.stringify(chat.body)).toBe(200);
  expect(chat.body.approvals).toMatchObject([{ tool: 'book_slot' }]);
  return chat.body.approvals[0] as { id: string; args: Record<string, unknown> };
}

const auditActions = async (id: string) =>
  (await h.agent.ledger.auditTrail({ approvalId: id })).map((a: { action: string }) => a.action);

describe('HTTP API: edits are rehearsed before they are accepted', () => {
  it('refuses an edit to a closed Sunday with 422 and the free times; the approval stays pending', async () => {
    const approval = await proposedBooking();
    const bookings = await count(h.db.pool, 'bookings');
    const sunday = await req(
      'POST',
      `/approvals/${approval.id}/approve`,
      { args: { ...approval.args, start_time: SUNDAY_10 } },
      MANAGER,
    );
    expect(sunday.status, JSON.stringify(sunday.body)).toBe(422);
    expect(sunday.body.error.code).toBe('invalid_arguments');
    const [issue] = sunday.body.error.details.issues;
    expect(issue).toMatchObject({ path: 'start_time', code: 'outside_business_hours' });
    expect(issue.message).toMatch(/no visits on that day/);
    expect(issue.alternatives.length).toBeGreaterThan(0);
    expect(issue.alternatives[0].start_time).toMatch(/^2026-12-1\dT\d\d:00:00-05:00$/);
    expect(sunday.body.error.details.alternatives).toEqual(issue.alternatives);

    expect((await h.agent.ledger.get(approval.id))!.status).toBe('pending');
    expect(await auditActions(approval.id)).toEqual(['proposed']);
    expect(await count(h.db.pool, 'bookings')).toBe(bookings);

    const plain = await req('POST', `/approvals/${approval.id}/approve`, {}, MANAGER);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.approval).toMatchObject({ status: 'executed', args: approval.args });
    expect(await count(h.db.pool, 'bookings')).toBe(bookings + 1);
  });

  it('refuses an edit that hands the request to another customer, whose id exists', async () => {
    const approval = await proposedBooking();
    const other = await req(
      'POST',
      `/approvals/${approval.id}/approve`,
      { args: { ...approval.args, customer_id: 'cus_001' } },
      MANAGER,
    );
    expect(other.status, JSON.stringify(other.body)).toBe(422);
    expect(other.body.error.details.issues).toEqual([
      { path: 'customer_id', message: expect.stringMatching(/customer of a request can't be changed/) },
    ]);
    expect((await h.agent.ledger.get(approval.id))!.status).toBe('pending');
    expect(await auditActions(approval.id)).toEqual(['proposed']);

    // The ledger holds the same rule for a caller that skips the service.
    await expect(
      h.agent.ledger.decide({
        approvalId: approval.id,
        approver: 'api:manager',
        decision: 'approve',
        args: { ...approval.args, customer_id: 'cus_001' },
      }),
    ).rejects.toMatchObject({ code: 'invalid_arguments', issues: [{ path: 'customer_id' }] });

    const moved = { ...approval.args, start_time: await freeStart(h.db.pool, 1, 3) };
    const ok = await req('POST', `/approvals/${approval.id}/approve`, { args: moved }, MANAGER);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.approval).toMatchObject({ status: 'executed', args: moved });
    expect(await auditActions(approval.id)).toEqual(['proposed', 'edited', 'approved', 'executed']);
  });

  it('answers 503 with Retry-After when the edit could not be rehearsed (nothing approved)', async () => {
    const unrehearsed = {
      decide: async () => {
        throw new LedgerError('rehearsal_unavailable', 'Please try again in a minute; nothing was approved.');
      },
    } as unknown as AgentService;
    const config = testConfig({ MANAGER_API_KEY: MANAGER, RATE_LIMIT_PER_MINUTE: '1000' });
    const router = createApiRouter({ config, pool: h.db.pool, agent: unrehearsed });
    const down = createServer((rq, rs) => void router.handle(rq, rs, () => undefined));
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
      const res = await fetch(`${url}/approvals/5e61f11a-7698-8b8f-8a8e-90c37fd98567/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${MANAGER}` },
        body: JSON.stringify({ args: { customer_id: 'cus_013' } }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(((await res.json()) as any).error).toMatchObject({ code: 'rehearsal_unavailable' });
    } finally {
      await new Promise((r) => down.close(r));
    }
  });
});
