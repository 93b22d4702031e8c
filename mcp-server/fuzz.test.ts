import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSeededDatabase, type TestDatabase } from '../core/testing/test-database.js';
import { MUTATING_TOOLS, TOOLS } from '../schema/tools/catalog.js';
import { insertApproval } from './testing/approvals.js';
import { call, connectHttp, TEST_STAFF_KEY, type Connected } from './testing/clients.js';
import { businessSnapshot } from './testing/tables.js';

/*
 * Random argument objects and random _meta thrown at every tool through a real MCP session:
 * the server never crashes (no `internal` error, no protocol failure), never writes, and every
 * mutating call without a matching approval ends in a validation error or a gate refusal.
 */

let db: TestDatabase;
let conn: Connected;
let approvedId: string;
let pendingId: string;
let before: Record<string, string | number>;

const RUNS = 250;

beforeAll(async () => {
  db = await createSeededDatabase();
  // A staff credential: the widest scope, so random _meta reaches the gate and the handlers.
  conn = await connectHttp(db.pool, { staffKeys: [TEST_STAFF_KEY], bearer: TEST_STAFF_KEY.key });
  // Real grants exist, so a random call may present one, but never for its own random arguments.
  approvedId = await insertApproval(db.pool, {
    tool: 'create_ticket',
    args: { customer_id: 'cus_001', subject: 'Approved ticket', description: 'x', category: 'general' },
  });
  pendingId = await insertApproval(db.pool, {
    tool: 'book_slot',
    status: 'pending',
    args: { customer_id: 'cus_002', service_id: 'svc_handyman_hour', start_time: '2026-12-08T10:00:00-05:00' },
  });
  before = await businessSnapshot(db.pool);
});
afterAll(async () => {
  await conn?.close();
  await db?.drop();
});

const anyValue = fc.oneof(
  { depthSize: 'small' },
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '2026-12-08T10:00:00-05:00',
    '2026-12-08T10:00:00Z',
    'svc_handyman_hour',
    'svc_deep_clean',
    'a@b.co',
    'x'.repeat(600),
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const knownCustomer = fc.constantFrom('cus_001', 'cus_002', 'cus_012', 'cus_021', 'cus_999');
const startTime = fc
  .date({ min: new Date('2026-12-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => new Date(Math.round(d.getTime() / 3_600_000) * 3_600_000).toISOString());
// Seeded bookings (some the customers' own, so a rehearsal can succeed), an unknown one and a malformed one.
const bookingId = fc.constantFrom('BKG-1001', 'BKG-1002', 'BKG-1003', 'BKG-1010', 'BKG-999999', 'bkg-1001');
const text = (min: number, max: number) =>
  fc.string({ minLength: min, maxLength: max }).filter((s) => s.trim().length >= min);

/** Arguments that pass each tool's schema most of the time, so the calls reach the gate and the handlers. */
const validArgs: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  search_knowledge_base: fc.record(
    { query: text(1, 80), limit: fc.integer({ min: 1, max: 10 }) },
    { requiredKeys: ['query'] },
  ),
  lookup_customer: fc.record(
    {
      customer_id: knownCustomer,
      email: fc.emailAddress(),
      phone: fc.constantFrom('555-201-3344', '+1 555 201 7788', '(555) 000-0000'),
      name: text(2, 20),
    },
    { requiredKeys: [] },
  ),
  create_ticket: fc.record(
    {
      customer_id: knownCustomer,
      subject: text(3, 60),
      description: text(1, 200),
      priority: fc.constantFrom('low', 'normal', 'high', 'urgent'),
      category: fc.constantFrom('billing', 'general', 'damage'),
    },
    { requiredKeys: ['customer_id', 'subject', 'description', 'category'] },
  ),
  update_customer: fc.record({
    customer_id: knownCustomer,
    changes: fc.record(
      {
        email: fc.emailAddress(),
        phone: fc.constantFrom('555-201-0000', '(555) 201-3344'),
        name: text(1, 40),
        notes: fc.string({ maxLength: 100 }),
        preferences: fc.record(
          { contact: fc.constantFrom('email', 'sms', 'phone'), eco_products: fc.boolean() },
          { requiredKeys: [] },
        ),
        address: fc.record({ line1: text(3, 30), city: text(2, 20), postal_code: text(3, 8) }),
      },
      { requiredKeys: ['notes'] },
    ),
  }),
  send_email: fc.record(
    { customer_id: knownCustomer, to: fc.emailAddress(), subject: text(1, 60), body: text(1, 300) },
    { requiredKeys: ['customer_id', 'subject', 'body'] },
  ),
  book_slot: fc.record(
    {
      customer_id: knownCustomer,
      service_id: fc.constantFrom('svc_handyman_hour', 'svc_standard_clean', 'svc_nope_nope'),
      start_time: startTime,
      notes: fc.string({ maxLength: 50 }),
    },
    { requiredKeys: ['customer_id', 'service_id', 'start_time'] },
  ),
  reschedule_booking: fc.record({ customer_id: knownCustomer, booking_id: bookingId, new_start_time: startTime }),
  cancel_booking: fc.record(
    { customer_id: knownCustomer, booking_id: bookingId, reason: fc.string({ maxLength: 50 }) },
    { requiredKeys: ['customer_id', 'booking_id'] },
  ),
};

/** Valid arguments with one key dropped or replaced by anything, or arguments that are just noise. */
const argsFor = (name: string) =>
  fc.oneof(
    { arbitrary: validArgs[name]!, weight: 5 },
    {
      arbitrary: fc.tuple(validArgs[name]!, fc.string({ maxLength: 12 }), fc.option(anyValue)).map(([a, k, v]) => {
        const keys = Object.keys(a);
        const key = keys.length && k.length % 2 === 0 ? keys[k.length % keys.length]! : k;
        const out: Record<string, unknown> = { ...a };
        if (v === null) delete out[key];
        else out[key] = v;
        return out;
      }),
      weight: 3,
    },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), anyValue, { maxKeys: 6 }), weight: 1 },
  );

const meta = fc.record(
  {
    approval_id: fc.oneof(fc.uuid(), fc.constantFrom('__approved__', '__pending__'), fc.string({ maxLength: 70 })),
    customer_id: fc.oneof(
      { arbitrary: knownCustomer, weight: 4 },
      { arbitrary: fc.string({ maxLength: 70 }), weight: 1 },
    ),
    staff_id: fc.string({ maxLength: 20 }),
    thread_id: fc.string({ maxLength: 20 }),
    dry_run: fc.oneof({ arbitrary: fc.boolean(), weight: 6 }, { arbitrary: anyValue, weight: 1 }),
  },
  { requiredKeys: [] },
);
const toolCall = fc
  .constantFrom(...TOOLS.map((t) => t.name))
  .chain((name) => fc.tuple(fc.constant(name), argsFor(name), meta));

describe('random arguments and _meta against every tool', () => {
  it(`never crashes, never writes, and refuses every unapproved write (${RUNS} calls)`, async () => {
    const seen = { refusedWrites: 0, dryRuns: 0, reads: 0, codes: new Map<string, number>() };
    await fc.assert(
      fc.asyncProperty(toolCall, async ([name, a, m]) => {
        const resolved: Record<string, unknown> = { ...m };
        if (m.approval_id === '__approved__') resolved.approval_id = approvedId;
        if (m.approval_id === '__pending__') resolved.approval_id = pendingId;
        const outcome = await call(conn.client, name, a, resolved);
        if (!outcome.ok) {
          seen.codes.set(outcome.code, (seen.codes.get(outcome.code) ?? 0) + 1);
          expect(outcome.code).not.toBe('internal');
          expect(outcome.code).not.toBe('unparsed');
        }
        if (MUTATING_TOOLS.has(name)) {
          if (outcome.ok) {
            // The only way a random write "succeeds" is a rehearsal, which commits nothing.
            expect(resolved.dry_run).toBe(true);
            expect(outcome.meta).toMatchObject({ dry_run: true });
            seen.dryRuns++;
          } else seen.refusedWrites++;
        } else seen.reads++;
      }),
      { numRuns: RUNS, seed: 20261207, endOnFailure: true },
    );
    expect(await businessSnapshot(db.pool)).toEqual(before);
    console.info(
      `[fuzz] ${RUNS} calls: ${seen.reads} reads, ${seen.refusedWrites} refused writes, ` +
        `${seen.dryRuns} successful dry runs; codes ${JSON.stringify(Object.fromEntries(seen.codes))}`,
    );
    expect(seen.refusedWrites).toBeGreaterThan(RUNS / 4);
    // The calls got past validation: the gate and the handlers were exercised, not only the schema.
    for (const code of ['approval_required', 'approval_not_found', 'arguments_mismatch', 'out_of_scope'])
      expect(seen.codes.get(code) ?? 0).toBeGreaterThan(0);
    expect(seen.dryRuns).toBeGreaterThan(0);
  });
});
