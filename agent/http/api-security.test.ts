import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../core/config.js';
import { call, propose, say } from '../testing/fixtures.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { createApiRouter } from './api.js';
import { send } from './router.js';

/**
 * The HTTP API is closed by default: each test here first reproduced a reported hole (reads of
 * customer data without a key, forged turns in Slack threads, a limiter keyed on whatever token
 * was sent, 500s on odd input, free-text approvers).
 */

const MANAGER = 'manager-key-0123456789';
const DANA = 'dana-key-0123456789abcdef';
const CLIENT = 'client-key-0123456789';
// The limiter's clock is pinned so a test never straddles a window boundary.
const NOW = Date.parse('2030-01-07T15:00:10.000Z');

let h: Harness;
const servers: Server[] = [];
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

async function api(env: Record<string, string> = {}) {
  const config = testConfig({ RATE_LIMIT_PER_MINUTE: '1000', ...env });
  const router = createApiRouter({ config, pool: h.db.pool, agent: h.agent.service, now: () => NOW });
  const server = createServer(
    (rq, rs) => void router.handle(rq, rs, () => undefined).then((hit) => hit || send(rs, 404, {})),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (method: string, path: string, body?: unknown, key?: string, contentType = 'application/json') => {
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(contentType ? { 'content-type': contentType } : {}),
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
}

const keys = { MANAGER_API_KEY: MANAGER, MANAGER_API_KEYS: `dana:${DANA}`, API_KEY: CLIENT };

beforeAll(async () => {
  h = await startHarness({ model });
});
beforeEach(async () => {
  // Every test calls from 127.0.0.1 in the same pinned window: start each one with empty buckets.
  await h.db.pool.query(`DELETE FROM rate_limits`);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await h.close();
  await h.db.drop();
});

async function pendingApproval(req: Awaited<ReturnType<typeof api>>, key: string | undefined = CLIENT) {
  const chat = await req(
    'POST',
    '/chat',
    { customer: 'cus_013', message: 'please open a ticket, the blind broke' },
    key,
  );
  expect(chat.status, JSON.stringify(chat.body)).toBe(200);
  return { threadId: chat.body.thread_id as string, id: chat.body.approvals[0].id as string };
}

describe('reads of customer data need the manager key', () => {
  it('with no keys configured (the default) nothing that shows customer data is served', async () => {
    const req = await api();
    const { threadId, id } = await pendingApproval(req, ''); // no Authorization header: local development
    for (const path of [
      '/approvals',
      '/approvals?status=pending',
      `/approvals/${id}`,
      `/threads/${encodeURIComponent(threadId)}`,
    ]) {
      const r = await req('GET', path);
      expect(r.status, path).toBe(403);
      expect(r.body.error.code).toBe('manager_api_disabled');
      expect(JSON.stringify(r.body)).not.toContain('cus_013');
    }
  });

  it('the client key may chat but not read; the manager key reads', async () => {
    const req = await api(keys);
    const { threadId, id } = await pendingApproval(req);
    for (const path of ['/approvals?status=pending', `/approvals/${id}`, `/threads/${encodeURIComponent(threadId)}`]) {
      expect(await req('GET', path)).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
      expect(await req('GET', path, undefined, CLIENT)).toMatchObject({
        status: 403,
        body: { error: { code: 'manager_key_required' } },
      });
      expect((await req('GET', path, undefined, MANAGER)).status, path).toBe(200);
      expect((await req('GET', path, undefined, DANA)).status, path).toBe(200);
    }
  });
});

describe('an API conversation never addresses a Slack thread', () => {
  it('refuses a Slack thread id, and the Slack customer’s pending request stays as it was', async () => {
    const slackThread = 'slack:C0SUPPORT:1767700000.000100';
    const turn = await h.agent.service.handleMessage({
      threadId: slackThread,
      customerId: 'cus_013',
      text: 'please open a ticket, the blind in the kitchen broke',
      source: 'slack',
      slack: { channel: 'C0SUPPORT', threadTs: '1767700000.000100', userId: 'U0CUS013' },
    });
    const real = turn.pending[0]!;
    const req = await api(keys);
    const forged = await req(
      'POST',
      '/chat',
      { thread_id: slackThread, customer: 'cus_013', message: 'actually, open a ticket for something else' },
      CLIENT,
    );
    expect(forged).toMatchObject({ status: 403, body: { error: { code: 'thread_not_api' } } });
    expect((await h.agent.ledger.get(real.id))!.status).toBe('pending');
    expect((await h.agent.ledger.list({ threadId: slackThread })).length).toBe(1);
    const transcript = await h.db.pool.query(
      `SELECT count(*)::int AS n FROM conversation_messages WHERE thread_id = $1 AND role = 'customer'`,
      [slackThread],
    );
    expect(transcript.rows[0].n).toBe(1);
  });

  it('a client thread id outside the api: namespace is refused; the API’s own ids continue', async () => {
    const req = await api(keys);
    const bare = await req('POST', '/chat', { thread_id: 'my-thread-1', customer: 'cus_013', message: 'hi' }, CLIENT);
    expect(bare).toMatchObject({ status: 403, body: { error: { code: 'thread_not_api' } } });
    expect((await h.db.pool.query(`SELECT 1 FROM conversations WHERE thread_id = 'my-thread-1'`)).rowCount).toBe(0);
    const first = await req('POST', '/chat', { customer: 'cus_013', message: 'hi' }, CLIENT);
    expect(first.body.thread_id).toMatch(/^api:/);
    const next = await req(
      'POST',
      '/chat',
      { thread_id: first.body.thread_id, customer: 'cus_013', message: 'and on Saturdays?' },
      CLIENT,
    );
    expect(next).toMatchObject({ status: 200, body: { thread_id: first.body.thread_id } });
    const mine = await req(
      'POST',
      '/chat',
      { thread_id: 'api:crm-4711', customer: 'cus_013', message: 'hello' },
      CLIENT,
    );
    expect(mine).toMatchObject({ status: 200, body: { thread_id: 'api:crm-4711' } });
  });
});

describe('rate limiting is keyed by who the caller is', () => {
  it('80 random tokens do not get through: failures are counted per address, then 429 with Retry-After', async () => {
    const req = await api({ ...keys, AUTH_FAILURES_PER_MINUTE: '10' });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 80; i++) {
      const r = await req('GET', '/approvals', undefined, randomBytes(16).toString('hex'));
      statuses.push(r.status);
      if (r.status === 429) retryAfter = r.headers.get('retry-after');
    }
    expect(statuses.filter((s) => s === 200)).toEqual([]);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBe(50); // the window ends at 15:01:00, 50 s after the pinned now
    // While the address is over its failure budget, a right guess is not told apart from a wrong one.
    expect((await req('GET', '/approvals', undefined, MANAGER)).status).toBe(429);
  });

  it('wrong keys on /chat are counted too (key guessing is bounded)', async () => {
    const req = await api({ ...keys, AUTH_FAILURES_PER_MINUTE: '5' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await req('POST', '/chat', { customer: 'cus_013', message: 'hi' }, `${CLIENT}-${i}`)).status);
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });

  it('a valid key is one bucket however it is sent; without a key the address is the bucket', async () => {
    const req = await api({ ...keys, RATE_LIMIT_PER_MINUTE: '3' });
    const statuses: number[] = [];
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'Bearer']) {
      const res = await fetch((await serverBase()) + '/approvals', {
        headers: { authorization: `${scheme} ${MANAGER}` },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toBe('50');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await req('GET', '/approvals', undefined, DANA)).status).toBe(200); // dana is someone else

    const open = await api({ RATE_LIMIT_PER_MINUTE: '2' }); // local development: no keys
    const anon: number[] = [];
    for (let i = 0; i < 3; i++) anon.push((await open('POST', '/chat', {})).status);
    expect(anon).toEqual([400, 400, 429]);
  });
});

async function serverBase() {
  const s = servers[servers.length - 1]!;
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('odd input is a 4xx, never a 500', () => {
  it('a malformed %-escape or a NUL in the path is 400 invalid_path', async () => {
    const req = await api(keys);
    expect(await req('GET', '/approvals/%E0%A4%A', undefined, MANAGER)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_path' } },
    });
    expect(await req('GET', '/threads/%E0%A4%A', undefined, MANAGER)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_path' } },
    });
    expect(await req('GET', '/threads/api%3Ax%00y', undefined, MANAGER)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_path' } },
    });
    expect(await req('GET', '/approvals?customer=cus%00013', undefined, MANAGER)).toMatchObject({
      status: 200,
      body: { approvals: [] },
    });
  });

  it('a NUL or a lone surrogate in a message is stored cleaned and answered', async () => {
    const req = await api(keys);
    const r = await req('POST', '/chat', { customer: 'cus_013', message: 'hello\u0000 there \ud800!' }, CLIENT);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const stored = await h.db.pool.query(
      `SELECT text FROM conversation_messages WHERE thread_id = $1 AND role = 'customer'`,
      [r.body.thread_id],
    );
    expect(stored.rows[0].text).toBe('hello there \ufffd!');
    expect((await req('POST', '/chat', { customer: 'cus\u0000_013', message: 'hi' }, CLIENT)).status).toBe(400);
    expect(await req('POST', '/chat', { customer: 'cus_013', message: '\u0000\u0000' }, CLIENT)).toMatchObject({
      status: 400,
      body: { error: { code: 'empty_message' } },
    });
  });

  it('a NUL in a rejection reason or in edited arguments is stored cleaned', async () => {
    const req = await api(keys);
    const a = await pendingApproval(req);
    const rejected = await req(
      'POST',
      `/approvals/${a.id}/reject`,
      { approver: 'dana', reason: 'not\u0000 now' },
      MANAGER,
    );
    expect(rejected).toMatchObject({ status: 200, body: { approval: { status: 'rejected', reason: 'not now' } } });
    const b = await pendingApproval(req);
    const approved = await req(
      'POST',
      `/approvals/${b.id}/approve`,
      {
        approver: 'dana',
        args: { customer_id: 'cus_013', subject: 'Blind\u0000', description: 'broke \udc00', category: 'damage' },
      },
      MANAGER,
    );
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.approval.args).toMatchObject({ subject: 'Blind', description: 'broke \ufffd' });
  });

  it('writes need content-type application/json (415), a bad body is 400, a large one 413', async () => {
    const req = await api(keys);
    const plain = await req(
      'POST',
      '/chat',
      JSON.stringify({ customer: 'cus_013', message: 'hi' }),
      CLIENT,
      'text/plain',
    );
    expect(plain).toMatchObject({ status: 415, body: { error: { code: 'unsupported_media_type' } } });
    const none = await req('POST', '/chat', JSON.stringify({ customer: 'cus_013', message: 'hi' }), CLIENT, '');
    expect(none.status).toBe(415);
    const { id } = await pendingApproval(req);
    expect((await req('POST', `/approvals/${id}/approve`, '{}', MANAGER, 'text/plain')).status).toBe(415);
    expect(
      (await req('POST', `/approvals/${id}/reject`, 'reason=no', MANAGER, 'application/x-www-form-urlencoded')).status,
    ).toBe(415);
    expect((await h.agent.ledger.get(id))!.status).toBe('pending');
    expect(
      (await req('POST', '/chat', '{"customer":', CLIENT, 'application/json; charset=utf-8')).body.error.code,
    ).toBe('invalid_json');
    expect((await req('POST', '/chat', '[1,2]', CLIENT)).body.error.code).toBe('invalid_request');
    const big = await req(
      'POST',
      '/chat',
      JSON.stringify({ customer: 'cus_013', message: 'x'.repeat(100_000) }),
      CLIENT,
    );
    expect(big).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
    // The same without a content-length (chunked): counted while it streams in, still answered with JSON.
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({ pull: (c) => (sent++ < 8 ? c.enqueue(chunk) : c.close()) });
    const chunked = await fetch((await serverBase()) + '/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${CLIENT}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as any).error.code).toBe('payload_too_large');
  });
});

describe('HTTP decisions record the key that made them', () => {
  it('the approver is the authenticated key, never the body’s free text', async () => {
    const req = await api(keys);
    const b = await pendingApproval(req);
    const rejected = await req('POST', `/approvals/${b.id}/reject`, { approver: 'dana', reason: 'duplicate' }, MANAGER);
    expect(rejected).toMatchObject({
      status: 200,
      body: { approval: { status: 'rejected', approver: 'api:manager' } },
    });
    const a = await pendingApproval(req);
    const approved = await req('POST', `/approvals/${a.id}/approve`, { approver: 'the-ceo' }, DANA);
    expect(approved).toMatchObject({ status: 200, body: { approval: { status: 'executed', approver: 'api:dana' } } });
    const audit = (await req('GET', `/approvals/${b.id}`, undefined, MANAGER)).body.audit;
    expect(audit.find((e: { action: string }) => e.action === 'rejected').actor).toBe('api:manager');
    expect(await req('POST', `/approvals/${b.id}/approve`, {}, CLIENT)).toMatchObject({
      status: 403,
      body: { error: { code: 'manager_key_required' } },
    });
  });
});
