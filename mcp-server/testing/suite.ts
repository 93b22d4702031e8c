import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createSeededDatabase, TEST_NOW, type TestDatabase } from '../../core/testing/test-database.js';
import { RETRIEVAL_CASES } from '../../schema/seed/retrieval-cases.js';
import { geminiSchemaProblems, toModelSchema } from '../../agent/model/model-schema.js';
import { MUTATING_TOOLS, READ_ONLY_TOOLS, TOOLS } from '../../schema/tools/catalog.js';
import { approvalRow, insertApproval } from './approvals.js';
import { call, ok, refused, type Connected } from './clients.js';
import { freeStarts } from './slots.js';
import { HOLDOUT_CASES } from './retrieval-holdout.js';
import { businessSnapshot } from './tables.js';

/**
 * The behaviour every transport must show, run once over stdio (a child process) and once over
 * Streamable HTTP. Each run has its own seeded database.
 */
export function defineToolSuite(label: string, connect: (db: TestDatabase) => Promise<Connected>): void {
  let db: TestDatabase;
  let conn: Connected;
  const staff = { staff_id: 'U01MGR0001', thread_id: `${label}:staff` };
  const as = (customerId: string) => ({ customer_id: customerId, thread_id: `${label}:${customerId}` });
  const tool = (name: string, args: unknown, meta?: Record<string, unknown>) => call(conn.client, name, args, meta);
  /** An approved approval for exactly these args, then the call with it. */
  const approvedCall = async (
    name: string,
    args: Record<string, unknown>,
    meta: Record<string, unknown> = staff,
    customerId?: string | null,
  ) => {
    const id = await insertApproval(db.pool, { tool: name, args, customerId });
    return { id, outcome: await tool(name, args, { ...meta, approval_id: id }) };
  };
  const count = async (sql: string, params: unknown[] = []) =>
    (await db.pool.query<{ n: number }>(sql, params)).rows[0]!.n;

  beforeAll(async () => {
    db = await createSeededDatabase();
    conn = await connect(db);
  });
  afterAll(async () => {
    await conn?.close();
    await db?.drop();
  });

  describe(`${label}: the published tools`, () => {
    let tools: Tool[];
    beforeAll(async () => {
      tools = (await conn.client.listTools()).tools;
    });

    it('lists the eight registry tools with the promised annotations', () => {
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
      expect(tools).toHaveLength(8);
      const ann = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
      expect(ann.search_knowledge_base).toMatchObject({ readOnlyHint: true });
      expect(ann.lookup_customer).toMatchObject({ readOnlyHint: true });
      expect(ann.create_ticket).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      expect(ann.update_customer).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
      expect(ann.send_email).toMatchObject({ readOnlyHint: false, openWorldHint: true, idempotentHint: false });
      expect(ann.book_slot).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      expect(ann.reschedule_booking).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
      });
      expect(ann.cancel_booking).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
      // What clients see agrees with what the gate routes on.
      expect(new Set(tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name))).toEqual(READ_ONLY_TOOLS);
      expect(new Set(tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name))).toEqual(MUTATING_TOOLS);
      // Short, since every plan call pays for them, but never a bare name.
      for (const t of tools) expect(t.description?.length ?? 0).toBeGreaterThan(30);
      expect(Object.fromEntries(TOOLS.map((t) => [t.name, t.verb]))).toMatchObject({
        book_slot: 'Book a visit',
        update_customer: 'Update customer details',
        send_email: 'Send an email',
        create_ticket: 'Create a support ticket',
        reschedule_booking: 'Move a booking',
        cancel_booking: 'Cancel a booking',
      });
    });

    it('publishes every input schema inside the Gemini function-declaration subset', () => {
      for (const t of tools)
        expect({ tool: t.name, problems: geminiSchemaProblems(toModelSchema(t.inputSchema)) }).toEqual({
          tool: t.name,
          problems: [],
        });
      // The check can fail: the same schema with what Gemini refuses is flagged, key by key.
      const bad = structuredClone(tools.find((t) => t.name === 'book_slot')!.inputSchema) as Record<string, any>;
      bad.properties.start_time.pattern = `^${'\\d'.repeat(150)}$`;
      bad.properties.party = { type: 'integer', exclusiveMinimum: 0 };
      bad.properties.extra = { type: 'object', additionalProperties: { type: 'string' } };
      bad.properties.ref = { $ref: '#/$defs/x' };
      const problems = geminiSchemaProblems(toModelSchema(bad));
      // Patterns stay on the server: toModelSchema leaves them out, so even a long one is not refused.
      expect(problems.join('\n')).not.toMatch(/start_time\.pattern/);
      expect(problems.join('\n')).toMatch(/party\.exclusiveMinimum/);
      expect(problems.join('\n')).toMatch(/extra\.properties: an object needs at least one property/);
      expect(problems.join('\n')).toMatch(/ref\.\$ref/);
    });
  });

  describe(`${label}: search_knowledge_base`, () => {
    it('finds an expected article in the top 5 for every paraphrased question of the seed', async () => {
      const misses: string[] = [];
      let top1 = 0;
      for (const c of RETRIEVAL_CASES) {
        const r = ok(await tool('search_knowledge_base', { query: c.question }, as('cus_001')));
        const ids = (r.results as { id: string }[]).map((x) => x.id);
        expect(ids.length).toBeLessThanOrEqual(5);
        if (c.expected.includes(ids[0]!)) top1++;
        if (!ids.some((id) => c.expected.includes(id))) misses.push(`${c.question} → ${ids.join(', ')}`);
      }
      console.info(
        `[${label}] retrieval over ${RETRIEVAL_CASES.length} seed cases: ` +
          `recall@1 ${top1}/${RETRIEVAL_CASES.length}, ` +
          `recall@5 ${RETRIEVAL_CASES.length - misses.length}/${RETRIEVAL_CASES.length}`,
      );
      expect(misses).toEqual([]);
    });

    it('generalises to questions nobody tuned on (loose floor: 80% in the top 5)', async () => {
      let top1 = 0;
      let top5 = 0;
      for (const c of HOLDOUT_CASES) {
        const ids = (
          (ok(await tool('search_knowledge_base', { query: c.question })).results as { id: string }[]) ?? []
        ).map((x) => x.id);
        if (c.expected.includes(ids[0]!)) top1++;
        if (ids.some((id) => c.expected.includes(id))) top5++;
      }
      console.info(
        `[${label}] retrieval over ${HOLDOUT_CASES.length} held-out cases: ` +
          `recall@1 ${top1}/${HOLDOUT_CASES.length}, recall@5 ${top5}/${HOLDOUT_CASES.length}`,
      );
      expect(top5 / HOLDOUT_CASES.length).toBeGreaterThanOrEqual(0.8);
    });

    it('returns plain-text snippets, best first, honouring the limit', async () => {
      const r = ok(
        await tool('search_knowledge_base', { query: 'How much is a deep clean for a 4 bedroom house?', limit: 3 }),
      );
      const results = r.results as { id: string; title: string; topic: string; snippet: string; score: number }[];
      expect(results).toHaveLength(3);
      expect(results.map((x) => x.id)).toContain('kb-pricing-02');
      for (const x of results) {
        expect(x.snippet).not.toMatch(/<\/?b>/);
        expect(x.snippet.length).toBeGreaterThan(40);
        expect(x.title.length).toBeGreaterThan(3);
      }
      expect(results.map((x) => x.score)).toEqual([...results.map((x) => x.score)].sort((a, b) => b - a));
    });

    it('copes with typos, one-word questions and nonsense', async () => {
      const top = async (q: string) =>
        ((ok(await tool('search_knowledge_base', { query: q })).results as { id: string }[]) ?? []).map((x) => x.id);
      expect(await top('warrenty on the cartrige')).toContain('kb-warranty-and-guarantee-03');
      expect((await top('refund?'))[0]).toBe('kb-payment-and-refunds-04');
      expect((await top('pets'))[0]).toBe('kb-safety-and-trust-04');
      expect(await top('zzqx qqzv')).toEqual([]);
      expect(await top("'; DROP TABLE kb_articles; -- & | ! :*")).toBeInstanceOf(Array);
      expect(refused(await tool('search_knowledge_base', { query: '' })).code).toBe('invalid_arguments');
    });
  });

  describe(`${label}: lookup_customer`, () => {
    it('finds by id with upcoming bookings (after now) and open tickets', async () => {
      await db.pool.query(
        `INSERT INTO tickets (customer_id, subject, description, priority, category)
         VALUES ('cus_003', 'Old question', 'x', 'low', 'general')`,
      );
      const r = ok(await tool('lookup_customer', { customer_id: 'cus_003' }, staff));
      expect(r.status).toBe('found');
      expect(r.customer).toMatchObject({
        id: 'cus_003',
        name: 'Priya Patel',
        address: { city: 'Maple Harbor', unit: null },
      });
      const bookings = r.upcoming_bookings as { starts_at: string; service_name: string }[];
      expect(bookings.length).toBeGreaterThan(0);
      for (const b of bookings) expect(new Date(b.starts_at).getTime()).toBeGreaterThan(new Date(TEST_NOW).getTime());
      expect(r.open_tickets).toEqual([expect.objectContaining({ subject: 'Old question', status: 'open' })]);
      expect(r.candidates).toEqual([]);
    });

    it('matches email without regard to case and phone by digits only', async () => {
      expect(
        (ok(await tool('lookup_customer', { email: 'Priya.PATEL@mail.example.net' })).customer as { id: string }).id,
      ).toBe('cus_003');
      expect((ok(await tool('lookup_customer', { phone: '555.201.7788' })).customer as { id: string }).id).toBe(
        'cus_003',
      );
      expect((ok(await tool('lookup_customer', { phone: '+1 (555) 201-3344' })).customer as { id: string }).id).toBe(
        'cus_001',
      );
      expect(ok(await tool('lookup_customer', { email: 'nobody@example.com' })).status).toBe('not_found');
    });

    it('answers "ambiguous" with masked candidates instead of guessing between namesakes', async () => {
      const r = ok(await tool('lookup_customer', { name: 'maria' }, staff));
      expect(r.status).toBe('ambiguous');
      expect(r.customer).toBeNull();
      expect((r.candidates as { id: string }[]).map((c) => c.id).sort()).toEqual(['cus_001', 'cus_004', 'cus_012']);
      expect(r.candidates).toContainEqual({
        id: 'cus_001',
        name: 'Maria Gonzalez',
        email_hint: 'm***z@example.com',
        city: 'Maple Harbor',
      });
      expect(JSON.stringify(r)).not.toContain('maria.gonzalez@');
      expect(ok(await tool('lookup_customer', { name: 'BROOKS' })).status).toBe('ambiguous');
      // A typo still finds the one person it is close to, not every Maria.
      const typo = ok(await tool('lookup_customer', { name: 'Maria Gonzales' }));
      expect(typo.status).toBe('found');
      expect((typo.customer as { id: string }).id).toBe('cus_001');
      expect(ok(await tool('lookup_customer', { name: 'Zebedee Quux' })).status).toBe('not_found');
      expect(refused(await tool('lookup_customer', {})).code).toBe('invalid_arguments');
    });

    it('in a customer conversation returns that customer only, and refuses anyone else the same way', async () => {
      expect(
        (ok(await tool('lookup_customer', { customer_id: 'cus_001' }, as('cus_001'))).customer as { id: string }).id,
      ).toBe('cus_001');
      const mine = ok(await tool('lookup_customer', { name: 'maria' }, as('cus_001')));
      expect(mine.status).toBe('found');
      expect(JSON.stringify(mine)).not.toMatch(/Chen|O'Neill|cus_004|cus_012/);
      const other = refused(await tool('lookup_customer', { customer_id: 'cus_004' }, as('cus_001')));
      const nobody = refused(await tool('lookup_customer', { email: 'ghost@example.com' }, as('cus_001')));
      const byEmail = refused(await tool('lookup_customer', { email: 'maria.chen@example.com' }, as('cus_001')));
      expect([other.code, nobody.code, byEmail.code]).toEqual(['out_of_scope', 'out_of_scope', 'out_of_scope']);
      // Same words whether the other person exists or not: no oracle.
      expect(nobody.message).toBe(byEmail.message);
      expect(refused(await tool('lookup_customer', { name: 'brooks' }, as('cus_001'))).code).toBe('out_of_scope');
    });
  });

  describe(`${label}: create_ticket`, () => {
    const args = {
      customer_id: 'cus_005',
      subject: 'Faucet dripping again',
      description: 'The kitchen faucet fixed last week drips again.',
      priority: 'high',
      category: 'technical',
    };

    it('creates the ticket for an approved approval and records who/what in the ledger and audit log', async () => {
      const { id, outcome } = await approvedCall('create_ticket', args);
      const ticket = ok(outcome).ticket as Record<string, string>;
      expect(ticket).toMatchObject({
        customer_id: 'cus_005',
        subject: args.subject,
        priority: 'high',
        category: 'technical',
        status: 'open',
      });
      expect(ticket.id).toMatch(/^TKT-\d+$/);
      expect(ticket.created_at).toBe(TEST_NOW);
      const row = (await db.pool.query(`SELECT approval_id, created_at FROM tickets WHERE id = $1`, [ticket.id]))
        .rows[0];
      expect(row.approval_id).toBe(id);
      expect(await approvalRow(db.pool, id)).toMatchObject({
        status: 'executed',
        result: { ticket: { id: ticket.id } },
      });
      expect(
        await count(`SELECT count(*)::int AS n FROM audit_log WHERE approval_id = $1 AND action = 'executed'`, [id]),
      ).toBe(1);
    });

    it('refuses an unknown customer, records the refusal, and replays it', async () => {
      const a = { ...args, customer_id: 'cus_999' };
      const { id, outcome } = await approvedCall('create_ticket', a);
      expect(refused(outcome).code).toBe('not_found');
      expect(await approvalRow(db.pool, id)).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
      const again = refused(await tool('create_ticket', a, { ...staff, approval_id: id }));
      expect(again).toMatchObject({ code: 'not_found', details: { replay: true } });
      expect(await count(`SELECT count(*)::int AS n FROM tickets WHERE customer_id = 'cus_999'`)).toBe(0);
    });

    it('in a customer conversation files tickets for that customer only', async () => {
      const mine = { ...args, customer_id: 'cus_006', subject: 'Cat scratched the new sofa cover' };
      expect(ok((await approvedCall('create_ticket', mine, as('cus_006'))).outcome).ticket).toMatchObject({
        customer_id: 'cus_006',
      });
      // The approval belongs to this customer but the arguments name another one.
      const theirs = { ...args, customer_id: 'cus_007' };
      const tickets = await count(`SELECT count(*)::int AS n FROM tickets`);
      const { outcome } = await approvedCall('create_ticket', theirs, as('cus_006'), 'cus_006');
      expect(refused(outcome).code).toBe('out_of_scope');
      // An approval of another conversation's customer is refused by the gate itself.
      const { outcome: o2 } = await approvedCall('create_ticket', theirs, as('cus_006'), 'cus_007');
      expect(refused(o2).code).toBe('out_of_scope');
      expect(await count(`SELECT count(*)::int AS n FROM tickets`)).toBe(tickets);
    });
  });

  describe(`${label}: update_customer`, () => {
    it(
      'changes several fields at once, merges preferences, ' + 'and reports before/after and what really changed',
      async () => {
        const args = {
          customer_id: 'cus_001',
          changes: {
            email: 'maria.g@example.com',
            phone: '(555) 201-3344', // unchanged
            address: { line1: '22 Quay Road', city: 'Maple Harbor', postal_code: 'MH 1012' },
            preferences: { contact: 'email' },
          },
        };
        const r = ok((await approvedCall('update_customer', args)).outcome) as Record<string, any>;
        expect(r.changed_fields).toEqual(['email', 'address', 'preferences']);
        expect(r.before).toMatchObject({
          email: 'maria.gonzalez@example.com',
          address: { line1: '18 Wharf Street', unit: 'Apt 4B' },
        });
        expect(r.after).toMatchObject({
          email: 'maria.g@example.com',
          phone: '(555) 201-3344',
          address: { line1: '22 Quay Road', unit: null },
        });
        expect(r.before.preferences).toEqual({ contact: 'sms', pets: 'one dog (Biscuit)', preferred_time: 'mornings' });
        expect(r.after.preferences).toEqual({
          contact: 'email',
          pets: 'one dog (Biscuit)',
          preferred_time: 'mornings',
        });
        const row = (await db.pool.query(`SELECT email, updated_at FROM customers WHERE id = 'cus_001'`)).rows[0];
        expect(row.email).toBe('maria.g@example.com');
        expect(row.updated_at.toISOString()).toBe(TEST_NOW);
      },
    );

    it('reports no change when the values are already on file', async () => {
      const r = ok(
        (await approvedCall('update_customer', { customer_id: 'cus_002', changes: { name: 'James Whitaker' } }))
          .outcome,
      );
      expect(r.changed_fields).toEqual([]);
      expect(r.before).toEqual(r.after);
    });

    it('refuses an email that another customer already has (any case), changing nothing', async () => {
      const before = await businessSnapshot(db.pool);
      const { id, outcome } = await approvedCall('update_customer', {
        customer_id: 'cus_002',
        changes: { email: 'Tom.Brennan@EXAMPLE.com', notes: 'x' },
      });
      const err = refused(outcome);
      expect(err.code).toBe('conflict');
      expect(err.message).toMatch(/already belongs to another customer/);
      expect((await businessSnapshot(db.pool)).customers_md5).toBe(before.customers_md5);
      expect((await approvalRow(db.pool, id))!.status).toBe('failed');
    });

    it('refuses unknown customers, invalid fields, and other customers in a customer conversation', async () => {
      expect(
        refused((await approvedCall('update_customer', { customer_id: 'cus_404', changes: { notes: 'x' } })).outcome)
          .code,
      ).toBe('not_found');
      expect(
        refused(
          await tool(
            'update_customer',
            { customer_id: 'cus_002', changes: { email: 'not-an-email' } },
            { ...staff, approval_id: randomUUID() },
          ),
        ).code,
      ).toBe('invalid_arguments');
      expect(refused(await tool('update_customer', { customer_id: 'cus_002', changes: {} }, staff)).code).toBe(
        'invalid_arguments',
      );
      const theirs = { customer_id: 'cus_002', changes: { notes: 'hello' } };
      expect(refused((await approvedCall('update_customer', theirs, as('cus_003'), 'cus_003')).outcome).code).toBe(
        'out_of_scope',
      );
    });
  });

  describe(`${label}: send_email`, () => {
    it('queues an email to the address on file inside the approval, for staff and for the customer', async () => {
      const { id, outcome } = await approvedCall('send_email', {
        customer_id: 'cus_006',
        subject: 'Your visit',
        body: 'See you Tuesday.\n\nBrightwell Home Services',
      });
      const r = ok(outcome);
      expect(r).toMatchObject({ to: 'aisha.rahman@example.org', subject: 'Your visit', status: 'queued' });
      const row = (await db.pool.query(`SELECT * FROM email_outbox WHERE id = $1`, [r.email_id])).rows[0];
      expect(row).toMatchObject({
        approval_id: id,
        customer_id: 'cus_006',
        to_address: 'aisha.rahman@example.org',
        status: 'queued',
        attempts: 0,
      });
      // The customer may restate their own address, in any case.
      const own = ok(
        (
          await approvedCall(
            'send_email',
            { customer_id: 'cus_006', to: 'Aisha.Rahman@example.org', subject: 'Hi', body: 'Hello' },
            as('cus_006'),
          )
        ).outcome,
      );
      expect(own.to).toBe('aisha.rahman@example.org');
    });

    it('lets staff send to another validated address', async () => {
      const r = ok(
        (
          await approvedCall('send_email', {
            customer_id: 'cus_029',
            to: 'accounts@goldberg-rentals.example.com',
            subject: 'Invoice',
            body: 'Attached.',
          })
        ).outcome,
      );
      expect(r.to).toBe('accounts@goldberg-rentals.example.com');
    });

    it('in a customer conversation never writes to another address', async () => {
      const before = await businessSnapshot(db.pool);
      const { outcome } = await approvedCall(
        'send_email',
        { customer_id: 'cus_006', to: 'attacker@evil.example', subject: 'My data', body: 'everything' },
        as('cus_006'),
      );
      expect(refused(outcome).code).toBe('out_of_scope');
      expect((await businessSnapshot(db.pool)).email_outbox).toBe(before.email_outbox);
    });

    it('refuses a customer with no email on file', async () => {
      const { outcome } = await approvedCall(
        'send_email',
        { customer_id: 'cus_012', subject: 'Receipt', body: 'Thanks' },
        as('cus_012'),
      );
      expect(refused(outcome).code).toBe('no_email_on_file');
      expect(
        refused(await tool('send_email', { customer_id: 'cus_012', to: 'nope', subject: 'x', body: 'y' }, staff)).code,
      ).toBe('invalid_arguments');
    });
  });

  describe(`${label}: book_slot`, () => {
    it(
      'books one crew for ceil(duration/60) consecutive hours, ' +
        'then the other crew, then refuses with alternatives',
      async () => {
        const [start] = await freeStarts(db.pool, { hours: 2, crews: 2 });
        const book = (customer: string) =>
          approvedCall('book_slot', {
            customer_id: customer,
            service_id: 'svc_faucet_repair',
            start_time: start!,
            notes: 'Side door',
          });
        const first = await book('cus_009');
        const b1 = ok(first.outcome).booking as Record<string, any>;
        expect(b1).toMatchObject({
          customer_id: 'cus_009',
          service_id: 'svc_faucet_repair',
          service_name: 'Faucet Repair',
          price_cents: 14500,
          status: 'confirmed',
        });
        expect(new Date(b1.starts_at).getTime()).toBe(new Date(start!).getTime());
        expect(new Date(b1.ends_at).getTime() - new Date(b1.starts_at).getTime()).toBe(90 * 60_000);
        expect(await count(`SELECT count(*)::int AS n FROM booking_slots WHERE booking_id = $1`, [b1.id])).toBe(2);
        expect(
          (await db.pool.query(`SELECT approval_id FROM bookings WHERE id = $1`, [b1.id])).rows[0].approval_id,
        ).toBe(first.id);

        const b2 = ok((await book('cus_010')).outcome).booking as Record<string, any>;
        expect(b2.crew).not.toBe(b1.crew);

        const third = refused((await book('cus_011')).outcome);
        expect(third.code).toBe('slot_unavailable');
        const alts = third.details.alternatives as { start_time: string; display: string }[];
        expect(alts.length).toBeGreaterThanOrEqual(3);
        expect(alts.length).toBeLessThanOrEqual(5);
        for (const a of alts) {
          expect(a.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00-0[45]:00$/);
          expect(a.display).toMatch(/(AM|PM) E[SD]T$/);
          expect(new Date(a.start_time).getTime()).not.toBe(new Date(start!).getTime());
          expect(new Date(a.start_time).getTime()).toBeGreaterThan(new Date(TEST_NOW).getTime());
        }
        // An alternative really is bookable.
        const retry = await tool(
          'book_slot',
          { customer_id: 'cus_011', service_id: 'svc_faucet_repair', start_time: alts[0]!.start_time },
          { ...staff, dry_run: true },
        );
        expect(ok(retry).booking).toMatchObject({ customer_id: 'cus_011' });
      },
    );

    it('refuses times in the past and outside visit hours, with alternatives', async () => {
      const b = (start_time: string, service_id = 'svc_handyman_hour') =>
        approvedCall('book_slot', { customer_id: 'cus_013', service_id, start_time });
      expect(refused((await b('2026-12-07T08:00:00-05:00')).outcome).code).toBe('slot_in_past');
      for (const t of [
        '2026-12-13T10:00:00-05:00' /* Sunday */,
        '2026-12-08T07:00:00-05:00',
        '2026-12-08T10:30:00-05:00',
        '2026-12-12T14:00:00-05:00' /* Sat afternoon */,
      ]) {
        const r = refused((await b(t)).outcome);
        expect({ t, code: r.code }).toEqual({ t, code: 'outside_business_hours' });
        expect((r.details.alternatives as unknown[]).length).toBeGreaterThan(0);
      }
      // A four-hour deep clean can't start an hour before closing.
      expect(refused((await b('2026-12-08T17:00:00-05:00', 'svc_deep_clean')).outcome).code).toBe(
        'outside_business_hours',
      );
    });

    it('refuses unknown and withdrawn services and other customers in a customer conversation', async () => {
      const [start] = await freeStarts(db.pool, { hours: 2 });
      expect(
        refused(
          (
            await approvedCall('book_slot', {
              customer_id: 'cus_013',
              service_id: 'svc_moon_landing',
              start_time: start!,
            })
          ).outcome,
        ).code,
      ).toBe('not_found');
      await db.pool.query(`UPDATE services SET active = false WHERE id = 'svc_window_clean'`);
      try {
        const r = refused(
          (
            await approvedCall('book_slot', {
              customer_id: 'cus_013',
              service_id: 'svc_window_clean',
              start_time: start!,
            })
          ).outcome,
        );
        expect(r).toMatchObject({ code: 'not_found', details: { active: false } });
      } finally {
        await db.pool.query(`UPDATE services SET active = true WHERE id = 'svc_window_clean'`);
      }
      const { outcome } = await approvedCall(
        'book_slot',
        { customer_id: 'cus_002', service_id: 'svc_window_clean', start_time: start! },
        as('cus_013'),
        'cus_013',
      );
      expect(refused(outcome).code).toBe('out_of_scope');
    });
  });

  describe(`${label}: dry run`, () => {
    it('rehearses a write without an approval and writes nothing, reporting a taken slot', async () => {
      const before = await businessSnapshot(db.pool);
      const [free] = await freeStarts(db.pool, { hours: 1 });
      const okRun = await tool(
        'book_slot',
        { customer_id: 'cus_015', service_id: 'svc_handyman_hour', start_time: free! },
        { ...as('cus_015'), dry_run: true },
      );
      expect(ok(okRun).booking).toMatchObject({ customer_id: 'cus_015' });
      expect(okRun.ok && okRun.meta).toMatchObject({ dry_run: true });
      const taken = (
        await db.pool.query<{ starts_at: Date }>(
          `SELECT b.starts_at FROM bookings b WHERE b.starts_at > $1 GROUP BY b.starts_at HAVING count(*) = 2 LIMIT 1`,
          [TEST_NOW],
        )
      ).rows[0]!.starts_at;
      const takenRun = refused(
        await tool(
          'book_slot',
          { customer_id: 'cus_015', service_id: 'svc_handyman_hour', start_time: taken.toISOString() },
          { ...staff, dry_run: true },
        ),
      );
      expect(takenRun.code).toBe('slot_unavailable');
      expect((takenRun.details.alternatives as unknown[]).length).toBeGreaterThanOrEqual(3);
      ok(
        await tool(
          'create_ticket',
          { customer_id: 'cus_015', subject: 'Test ticket', description: 'x', category: 'general' },
          { ...staff, dry_run: true },
        ),
      );
      ok(
        await tool(
          'update_customer',
          { customer_id: 'cus_015', changes: { notes: 'dry' } },
          { ...staff, dry_run: true },
        ),
      );
      expect(await businessSnapshot(db.pool)).toEqual(before);
    });
  });

  describe(`${label}: the approval gate`, () => {
    const args = {
      customer_id: 'cus_017',
      subject: 'Window left open',
      description: 'The crew left the kitchen window open.',
      priority: 'normal',
      category: 'complaint',
    };
    let before: Record<string, string | number>;
    beforeAll(async () => {
      before = await businessSnapshot(db.pool);
    });
    const unchanged = async () => expect(await businessSnapshot(db.pool)).toEqual(before);
    const withApproval = async (
      opts: Parameters<typeof insertApproval>[1],
      callArgs: Record<string, unknown> = args,
      name = 'create_ticket',
      meta: Record<string, unknown> = staff,
    ) => {
      const id = await insertApproval(db.pool, opts);
      before = await businessSnapshot(db.pool);
      return { id, outcome: await tool(name, callArgs, { ...meta, approval_id: id }) };
    };

    it('refuses a write with no approval id, or one the ledger does not know', async () => {
      expect(refused(await tool('create_ticket', args, staff)).code).toBe('approval_required');
      expect(refused(await tool('create_ticket', args, { ...staff, approval_id: randomUUID() })).code).toBe(
        'approval_not_found',
      );
      expect(refused(await tool('create_ticket', args, { ...staff, approval_id: 'approve-me-please' })).code).toBe(
        'approval_not_found',
      );
      await unchanged();
    });

    it('refuses pending, rejected, superseded and withdrawn approvals', async () => {
      for (const status of ['pending', 'rejected', 'superseded', 'withdrawn'] as const) {
        const { id, outcome } = await withApproval({ tool: 'create_ticket', args, status });
        expect({ status, code: refused(outcome).code }).toEqual({ status, code: 'approval_not_approved' });
        expect((await approvalRow(db.pool, id))!.status).toBe(status);
        await unchanged();
      }
    });

    it('refuses expired approvals, and pending ones past their expiry', async () => {
      expect(refused((await withApproval({ tool: 'create_ticket', args, status: 'expired' })).outcome).code).toBe(
        'approval_expired',
      );
      const late = await withApproval({
        tool: 'create_ticket',
        args,
        status: 'pending',
        expiresAt: '2026-12-07T13:59:59.000Z',
      });
      expect(refused(late.outcome).code).toBe('approval_expired');
      await unchanged();
    });

    it('refuses arguments changed by one character, and another tool, without consuming the grant', async () => {
      const { id, outcome } = await withApproval(
        { tool: 'create_ticket', args },
        { ...args, subject: 'Window left opeN' },
      );
      expect(refused(outcome).code).toBe('arguments_mismatch');
      const other = refused(
        await tool(
          'send_email',
          { customer_id: 'cus_017', subject: args.subject, body: args.description },
          { ...staff, approval_id: id },
        ),
      );
      expect(other.code).toBe('arguments_mismatch');
      await unchanged();
      expect((await approvalRow(db.pool, id))!.status).toBe('approved');
      // The grant still works for exactly what was approved (defaults and key order don't matter).
      const { priority: _p, ...withoutDefault } = { ...args, priority: 'normal' };
      const r = ok(await tool('create_ticket', { ...withoutDefault }, { ...staff, approval_id: id }));
      expect(r.ticket).toMatchObject({ subject: args.subject });
    });

    it('returns the stored result for a replayed approval id, writing once', async () => {
      const a = { ...args, subject: 'Replay me' };
      const { id, outcome } = await withApproval({ tool: 'create_ticket', args: a }, a);
      const first = ok(outcome);
      const second = await tool('create_ticket', a, { ...staff, approval_id: id });
      expect(ok(second)).toEqual(first);
      expect(second.ok && second.meta).toMatchObject({ replay: true, approval_id: id });
      expect(await count(`SELECT count(*)::int AS n FROM tickets WHERE approval_id = $1`, [id])).toBe(1);
      expect(
        await count(`SELECT count(*)::int AS n FROM audit_log WHERE approval_id = $1 AND action = 'executed'`, [id]),
      ).toBe(1);
    });
  });
}
