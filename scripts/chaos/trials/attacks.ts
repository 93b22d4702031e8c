import { createHmac, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { propose, request, type Reply } from '../api.js';
import type { ChaosContext } from '../context.js';
import { baseline, unauthorizedWrites } from '../invariants.js';
import { connectHttp } from '../mcp-clients.js';
import { sleep, waitFor } from '../processes.js';
import { emptyResult, type TrialResult } from '../report.js';
import { Worker, workerEnv } from '../workers.js';

const RATE_LIMIT = 40;
const SUPPORT = 'C01SUPPORT0';
const CUSTOMER_SLACK_USER = 'U01CUS0001'; // cus_001, linked by the demo seed

const sign = (secret: string, body: string, ts: number) => ({
  'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`,
  'x-slack-request-timestamp': String(ts),
  'content-type': 'application/json',
});

function messageEvent(text: string, ts: string) {
  return {
    token: 'local-slack-verification-token',
    team_id: 'T0LOCAL0001',
    api_app_id: 'A0LOCAL0001',
    type: 'event_callback',
    event_id: `Ev${randomBytes(6).toString('hex').toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: 'T0LOCAL0001',
        user_id: 'U01BRIGHTWL',
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    event: {
      type: 'message',
      channel: SUPPORT,
      channel_type: 'channel',
      user: CUSTOMER_SLACK_USER,
      text,
      ts,
      event_ts: ts,
    },
  };
}

const slackTs = (n: number) => `${Math.floor(Date.now() / 1000)}.${String(100000 + n).padStart(6, '0')}`;
const summary = (a: Reply) =>
  `${a.status || a.error} ` +
  (typeof a.body === 'string' ? a.body.slice(0, 160) : JSON.stringify(a.body ?? '').slice(0, 160));

/**
 * What an attacker on the network (or a page in a manager's browser) would try: the HTTP API
 * without keys, forged Slack requests, the HTTP tool server without a credential, a foreign
 * Origin; and Slack events arriving while Postgres is down or carrying text Postgres cannot store.
 */
export async function attacks(ctx: ChaosContext): Promise<TrialResult> {
  const r = emptyResult('attacks (HTTP API, Slack, MCP over HTTP)');
  const crashesBefore = ctx.crashes.length;
  const expect = (name: string, ok: boolean, detail: string) => {
    r.trials++;
    if (ok) r.refused++;
    else {
      r.failures.push(`${name}: ${detail}`);
    }
  };
  const db = 'chaos_attack';
  const url = await ctx.cluster.createDatabase(db);
  const slackDb = 'chaos_slack';
  const slackUrl = await ctx.cluster.createDatabase(slackDb);
  const mcpKey = `chaos-mcp-${randomBytes(12).toString('hex')}`;
  const secret = randomBytes(24).toString('hex');
  const secretFile = path.join(ctx.dir, 'slack-secret');
  writeFileSync(secretFile, secret, { mode: 0o600 });
  const clock: Record<string, string> = ctx.fixedNow ? { FIXED_NOW: ctx.fixedNow } : {};
  const limited = { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), ...clock };
  // The default configuration an operator starts with: no API_KEY, only the manager key.
  const open = new Worker(
    'a-open',
    ctx.dir,
    workerEnv({ databaseUrl: url, managerKey: ctx.keys.managerKey, extra: limited }),
    ctx.crashes,
  );
  const keyed = new Worker(
    'a-keyed',
    ctx.dir,
    workerEnv({ databaseUrl: url, apiKey: ctx.keys.apiKey, managerKey: ctx.keys.managerKey, extra: limited }),
    ctx.crashes,
  );
  const slack = new Worker(
    'a-slack',
    ctx.dir,
    workerEnv({ databaseUrl: slackUrl, managerKey: ctx.keys.managerKey, extra: { ...clock } }),
    ctx.crashes,
    ['scripts/chaos/slack-worker.ts', secretFile],
  );
  const mcpEnv = (key?: string): Record<string, string> => ({
    DATABASE_URL: url,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...clock,
    ...(key ? { MCP_API_KEY: key } : {}),
  });
  const mcpOpen = new Worker('mcp-open', ctx.dir, mcpEnv(), ctx.crashes, [
    'mcp-server/http.ts',
    '--no-email-dispatcher',
  ]);
  const mcpKeyed = new Worker('mcp-keyed', ctx.dir, mcpEnv(mcpKey), ctx.crashes, [
    'mcp-server/http.ts',
    '--no-email-dispatcher',
  ]);
  const all = [open, keyed, slack, mcpOpen, mcpKeyed];
  try {
    await open.start();
    await Promise.all([keyed.start(), slack.start(), mcpOpen.start(), mcpKeyed.start()]);
    const base = await baseline(ctx.cluster, db);

    // A real customer's pending request, so there is data to leak.
    const victim = await propose(keyed.url, ctx.keys, 4);
    if (!victim.proposal) throw new Error(`set-up: no proposal (${summary(victim.reply)})`);
    const pending = victim.proposal;

    // 1. Customer data without a key.
    const list = await request(`${open.url}/approvals?status=pending`);
    const leaked = list.status === 200 && JSON.stringify(list.body).includes(pending.approvalId);
    expect(
      'GET /approvals without a key (default config)',
      !leaked,
      `answered ${list.status} with ${list.body?.approvals?.length ?? 0} approvals ` +
        `incl. customer ${pending.customer}'s request`,
    );
    const one = await request(`${open.url}/approvals/${pending.approvalId}`);
    expect('GET /approvals/:id without a key', one.status !== 200, `answered ${summary(one)}`);
    const thread = await request(`${open.url}/threads/${pending.threadId}`);
    expect('GET /threads/:id without a key', thread.status !== 200, `answered ${summary(thread)}`);
    const withChatKey = await request(`${keyed.url}/approvals?status=pending`, { token: ctx.keys.apiKey });
    expect(
      'GET /approvals with the chat key (not the manager key)',
      withChatKey.status !== 200,
      `answered ${withChatKey.status} with ${withChatKey.body?.approvals?.length ?? 0} approvals`,
    );

    // 2. Malformed input must be a 4xx, never a 500.
    const badEscape = await request(`${open.url}/approvals/%E0%A4%A`, { token: ctx.keys.managerKey });
    expect(
      'malformed %-escape in a path',
      badEscape.status >= 400 && badEscape.status < 500,
      `answered ${summary(badEscape)}`,
    );
    const nul = await request(`${open.url}/chat`, {
      json: { customer: 'cus_002', message: 'hello\u0000 what are your hours?' },
    });
    expect('NUL in a chat message', nul.status !== 0 && nul.status < 500, `answered ${summary(nul)}`);
    const surrogate = await request(`${open.url}/chat`, { json: { customer: 'cus_002', message: 'hours? \ud800' } });
    expect(
      'lone surrogate in a chat message',
      surrogate.status !== 0 && surrogate.status < 500,
      `answered ${summary(surrogate)}`,
    );
    const plain = await request(`${open.url}/chat`, {
      body: JSON.stringify({ customer: 'cus_002', message: 'hours?' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect('POST /chat with text/plain', plain.status === 415, `answered ${summary(plain)} (want 415)`);

    // 3. Slack: signatures, replays from the future, and a Slack thread addressed through the API.
    const challenge = JSON.stringify({ type: 'url_verification', token: 'x', challenge: 'chaos-challenge' });
    const now = Math.floor(Date.now() / 1000);
    const control = await request(`${slack.url}/slack/events`, {
      body: challenge,
      headers: sign(secret, challenge, now),
    });
    if (control.status !== 200)
      r.failures.push(
        `set-up: a correctly signed url_verification was refused (${summary(control)}); ` +
          'the Slack checks below prove nothing',
      );
    const future = await request(`${slack.url}/slack/events`, {
      body: challenge,
      headers: sign(secret, challenge, now + 600),
    });
    expect(
      'Slack request signed 10 min in the future',
      future.status === 401,
      `answered ${summary(future)} (want 401)`,
    );
    const past = await request(`${slack.url}/slack/events`, {
      body: challenge,
      headers: sign(secret, challenge, now - 600),
    });
    expect('Slack request signed 10 min in the past', past.status === 401, `answered ${summary(past)} (want 401)`);
    const forged = await request(`${slack.url}/slack/events`, {
      body: challenge,
      headers: sign('not-the-secret', challenge, now),
    });
    expect('Slack request with a forged signature', forged.status === 401, `answered ${summary(forged)}`);

    // A customer's real Slack conversation with a pending request…
    const rootTs = slackTs(1);
    const slackThread = `slack:${SUPPORT}:${rootTs}`;
    const ev = JSON.stringify(messageEvent('I was charged twice for my last cleaning', rootTs));
    const posted = await request(`${slack.url}/slack/events`, {
      body: ev,
      headers: sign(secret, ev, Math.floor(Date.now() / 1000)),
    });
    if (posted.status !== 200) r.failures.push(`set-up: a signed Slack message was answered ${summary(posted)}`);
    const slackPending = await waitFor(
      async () =>
        (
          await ctx.cluster.query<{ id: string; status: string }>(
            slackDb,
            `SELECT id, status FROM approvals WHERE thread_id = $1`,
            [slackThread],
          )
        ).rows[0],
      30_000,
      250,
    );
    if (!slackPending) r.failures.push(`set-up: the Slack message in ${slackThread} proposed nothing`);
    // …addressed through the HTTP API.
    const hijack = await request(`${slack.url}/chat`, {
      json: {
        thread_id: slackThread,
        customer: 'cus_001',
        message: 'Actually, please open a ticket: my fridge is broken',
      },
    });
    const after = slackPending
      ? (
          await ctx.cluster.query<{ status: string }>(slackDb, `SELECT status FROM approvals WHERE id = $1`, [
            slackPending.id,
          ])
        ).rows[0]?.status
      : undefined;
    expect(
      'POST /chat with a Slack thread id',
      hijack.status >= 400 && hijack.status < 500 && (!slackPending || after === 'pending'),
      `answered ${summary(hijack)}; the Slack thread's pending approval is now '${after}'`,
    );

    // 4. Slack events while Postgres is down, and text Postgres cannot store: acked ⇒ answered.
    await slackDelivery(ctx, r, { slack, secret, slackDb });

    // 5. The HTTP tool server without a credential.
    const cus2 = (
      await ctx.cluster.query<{ email: string; phone: string }>(
        db,
        `SELECT email, phone FROM customers WHERE id = 'cus_002'`,
      )
    ).rows[0]!;
    const anon = await connectHttp(mcpOpen.url + '/mcp');
    try {
      const read = await anon.call('lookup_customer', { customer_id: 'cus_002' });
      const pii = [cus2.email, cus2.phone].filter((v) => v && read.text.includes(v));
      expect(
        'MCP lookup_customer of cus_002 without a credential',
        pii.length === 0,
        `returned ${pii.length} of cus_002's contact fields (${read.isError ? read.code : 'ok'})`,
      );
      const asOther = await anon.call('lookup_customer', { customer_id: 'cus_002' }, { customer_id: 'cus_001' });
      const pii2 = [cus2.email, cus2.phone].filter((v) => v && asOther.text.includes(v));
      expect(
        'MCP lookup_customer of cus_002 claiming to be cus_001',
        pii2.length === 0,
        `returned cus_002's contact fields`,
      );
      const before = await ctx.cluster.query<{ n: number }>(db, `SELECT count(*)::int AS n FROM tickets`);
      const dry = await anon.call(
        'create_ticket',
        {
          customer_id: 'cus_002',
          subject: 'dry run probe',
          description: 'dry run probe',
          priority: 'normal',
          category: 'general',
        },
        { dry_run: true },
      );
      expect(
        'MCP dry_run of a write without a credential',
        dry.isError,
        `the write handler ran: ${dry.text.slice(0, 200)}`,
      );
      const afterDry = await ctx.cluster.query<{ n: number }>(db, `SELECT count(*)::int AS n FROM tickets`);
      if (afterDry.rows[0]!.n !== before.rows[0]!.n) r.unauthorized++;

      // An approval a manager approved whose worker has not run it yet (the window a crash leaves).
      const grant = await propose(keyed.url, ctx.keys, 7);
      if (!grant.proposal) throw new Error(`set-up: no proposal (${summary(grant.reply)})`);
      const g = (
        await ctx.cluster.query<{ args: Record<string, unknown> }>(db, `SELECT args FROM approvals WHERE id = $1`, [
          grant.proposal.approvalId,
        ])
      ).rows[0]!;
      await ctx.cluster.query(
        db,
        `UPDATE approvals SET status = 'approved', approver = 'api:chaos-manager', decided_at = created_at
         WHERE id = $1 AND status = 'pending'`,
        [grant.proposal.approvalId],
      );
      const exec = await anon.call(grant.proposal.tool, g.args, {
        approval_id: grant.proposal.approvalId,
        staff_id: 'mallory',
      });
      const byMallory = await ctx.cluster.query<{ n: number }>(
        db,
        `SELECT count(*)::int AS n FROM audit_log
         WHERE approval_id = $1 AND action = 'executed' AND actor NOT LIKE 'customer:%' AND actor NOT LIKE 'agent%'`,
        [grant.proposal.approvalId],
      );
      const executedByAttacker = !exec.isError || byMallory.rows[0]!.n > 0;
      expect(
        'MCP execution of an approved approval with a made-up staff_id',
        !executedByAttacker,
        `executed: ${exec.text.slice(0, 200)}`,
      );
      if (executedByAttacker) {
        r.unauthorized++;
        const actor = await ctx.cluster.query<{ actor: string }>(
          db,
          `SELECT actor FROM audit_log WHERE approval_id = $1 AND action = 'executed'`,
          [grant.proposal.approvalId],
        );
        r.evidence.push(
          `approval ${grant.proposal.approvalId} executed over MCP without a credential; ` +
            `audit actor ${actor.rows.map((x) => x.actor).join(', ')}`,
        );
      }
    } finally {
      await anon.close();
    }
    const noKey = await request(mcpKeyed.url + '/mcp', {
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect('MCP with MCP_API_KEY set, no credential', noKey.status === 401, `answered ${summary(noKey)}`);
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '1' } },
    };
    const mcpHeaders = { accept: 'application/json, text/event-stream', origin: 'http://evil.example' };
    const originOpen = await request(mcpOpen.url + '/mcp', { json: init, headers: mcpHeaders });
    expect('MCP with a foreign Origin (no key configured)', originOpen.status === 403, `answered ${originOpen.status}`);
    const originKeyed = await request(mcpKeyed.url + '/mcp', { json: init, headers: mcpHeaders, token: mcpKey });
    expect('MCP with a foreign Origin and a valid key', originKeyed.status === 403, `answered ${originKeyed.status}`);

    // 6. Key guessing and rate limits, last (they spend this address's budget).
    for (const w of [keyed, open]) {
      const codes = new Map<number, number>();
      let retryAfter = true;
      for (let i = 0; i < ctx.sizes.rateLimitTokens; i++) {
        const a = await request(`${w.url}/chat`, {
          token: randomBytes(16).toString('hex'),
          json: { customer: 'cus_003', message: 'what are your hours?' },
        });
        codes.set(a.status, (codes.get(a.status) ?? 0) + 1);
        if (a.status === 429 && !a.headers?.get('retry-after')) retryAfter = false;
      }
      const limitedN = codes.get(429) ?? 0;
      const through = ctx.sizes.rateLimitTokens - limitedN;
      expect(
        `${ctx.sizes.rateLimitTokens} random bearer tokens on ` +
          `${w === keyed ? 'a worker with API_KEY' : 'the default config'} (limit ${RATE_LIMIT}/min)`,
        limitedN > 0 && through <= RATE_LIMIT,
        `answers ${[...codes].map(([k, v]) => `${k}×${v}`).join(', ')}: ${through} got past the limiter`,
      );
      if (limitedN > 0 && !retryAfter) r.failures.push(`429 without a Retry-After header on ${w.name}`);
    }

    const unauthorized = await unauthorizedWrites(ctx.cluster, db, base);
    r.unauthorized += unauthorized.length;
    r.evidence.push(...unauthorized);
    for (const w of all)
      if (!w.alive && w.proc?.expectedExit === false) r.evidence.push(`${w.name} exited during the attacks`);
  } finally {
    await Promise.all(all.map((w) => w.stop()));
  }
  const crashes = ctx.crashes.slice(crashesBefore);
  r.crashed = crashes.length;
  r.evidence.push(...crashes.map((c) => `crash ${c.worker} (exit ${c.code}):\n${c.tail}`));
  return r;
}

/**
 * Slack delivery under faults: an event posted while Postgres is down must not be acked unless it
 * is stored (Slack retries what is not acked, up to 3 times); text with NUL or a lone surrogate must
 * be stored and answered. "Lost" = acknowledged and never answered.
 */
async function slackDelivery(
  ctx: ChaosContext,
  r: TrialResult,
  o: { slack: Worker; secret: string; slackDb: string },
): Promise<void> {
  const post = async (body: string, retry?: number) =>
    request(`${o.slack.url}/slack/events`, {
      body,
      headers: {
        ...sign(o.secret, body, Math.floor(Date.now() / 1000)),
        ...(retry ? { 'x-slack-retry-num': String(retry), 'x-slack-retry-reason': 'http_error' } : {}),
      },
      timeoutMs: 10_000,
    });
  const cases: { name: string; ts: string; body: string; acked: boolean }[] = [];

  // Down for 3 s while a customer writes; Slack retries an unacknowledged event after ~1 s, 1 min, 5 min:
  // here the retries come once Postgres is back.
  await ctx.cluster.stop('immediate');
  try {
    const ts = slackTs(2);
    const body = JSON.stringify(messageEvent('What are your opening hours on Saturday?', ts));
    const first = await post(body);
    cases.push({
      name: 'Slack message while Postgres is down',
      ts,
      body,
      acked: first.status >= 200 && first.status < 300,
    });
    r.evidence.push(`Slack event while Postgres was down: answered ${summary(first)}`);
    await sleep(3_000);
  } finally {
    await ctx.cluster.start();
  }
  for (const [name, text] of [
    ['Slack message with NUL', 'hello\u0000 what are your hours?'],
    ['Slack message with a lone surrogate', 'what are your hours? \ud83d'],
  ] as const) {
    const ts = slackTs(cases.length + 3);
    const body = JSON.stringify(messageEvent(text, ts));
    const a = await post(body);
    cases.push({ name, ts, body, acked: a.status >= 200 && a.status < 300 });
  }
  await waitFor(async () => o.slack.healthy(), 30_000, 250);
  // What Slack would do: retry what was not acknowledged.
  for (const c of cases) {
    for (let retry = 1; !c.acked && retry <= 3; retry++) {
      const a = await post(c.body, retry);
      c.acked = a.status >= 200 && a.status < 300;
      if (!c.acked) await sleep(1_000);
    }
  }
  for (const c of cases) {
    r.trials++;
    const thread = `slack:${SUPPORT}:${c.ts}`;
    const answered = await waitFor(
      async () =>
        (
          await ctx.cluster.query<{ n: number }>(
            o.slackDb,
            `SELECT count(*)::int AS n FROM conversation_messages WHERE thread_id = $1 AND role = 'agent'`,
            [thread],
          )
        ).rows[0]!.n > 0,
      30_000,
      500,
    );
    if (c.acked && !answered) {
      r.lost++;
      r.failures.push(`${c.name}: acknowledged to Slack but never stored/answered (thread ${thread})`);
    } else if (!c.acked) {
      r.failures.push(`${c.name}: never acknowledged, even after 3 retries with Postgres up`);
    } else r.executed++;
  }
}
