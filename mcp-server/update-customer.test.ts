import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, type TestDatabase } from '../core/testing/test-database.js';
import { approvalRow, insertApproval } from './testing/approvals.js';
import { call, connectHttp, ok, refused, TEST_STAFF_KEY, type Connected } from './testing/clients.js';

/*
 * update_customer's one refusal that its own check cannot see coming: another transaction takes
 * the email address between that check and the UPDATE, and the unique index refuses the UPDATE.
 * The handler keeps no savepoint of its own; the gate's must leave its transaction usable, so
 * the refusal is recorded as the approval's outcome and a replay gets the same answer.
 */

let db: TestDatabase;
let conn: Connected;
const staff = { staff_id: 'U01MGR0001', thread_id: 'update-customer:staff' };

beforeAll(async () => {
  db = await createSeededDatabase();
  conn = await connectHttp(db.pool, { staffKeys: [TEST_STAFF_KEY], bearer: TEST_STAFF_KEY.key });
});
afterAll(async () => {
  await conn?.close();
  await db?.drop();
});

describe('update_customer', () => {
  it('an address taken by a concurrent transaction is refused, recorded and replayed', async () => {
    const email = 'raced.address@example.com';
    const args = { customer_id: 'cus_001', changes: { email } };
    const id = await insertApproval(db.pool, { tool: 'update_customer', args });
    const rival = new pg.Client({ connectionString: db.url });
    await rival.connect();
    try {
      await rival.query('BEGIN');
      await rival.query(`UPDATE customers SET email = $1 WHERE id = 'cus_002'`, [email]);
      // The gate's UPDATE waits on the rival's index entry; once the rival commits it fails.
      const pending = call(conn.client, 'update_customer', args, { ...staff, approval_id: id });
      await waitForLockWait(db.pool);
      await rival.query('COMMIT');
      const outcome = refused(await pending);
      expect(outcome.code).toBe('conflict');
    } finally {
      await rival.end();
    }
    const row = await approvalRow(db.pool, id);
    expect(row?.status).toBe('failed');
    expect((row?.error as { code?: string } | null)?.code).toBe('conflict');
    const email1 = await db.pool.query(`SELECT email FROM customers WHERE id = 'cus_001'`);
    expect(email1.rows[0].email).not.toBe(email);
    const replay = refused(await call(conn.client, 'update_customer', args, { ...staff, approval_id: id }));
    expect(replay.code).toBe('conflict');
    expect(replay.details.replay).toBe(true);
  });

  it('a change it can make is made, once', async () => {
    const args = { customer_id: 'cus_001', changes: { phone: '555-010-2030' } };
    const id = await insertApproval(db.pool, { tool: 'update_customer', args });
    const out = ok(await call(conn.client, 'update_customer', args, { ...staff, approval_id: id }));
    expect(out.changed_fields).toEqual(['phone']);
    expect((await approvalRow(db.pool, id))?.status).toBe('executed');
  });
});

/** Until some backend of this database waits for a transaction (the gate's UPDATE on the rival's row). */
async function waitForLockWait(pool: TestDatabase['pool']) {
  for (let i = 0; i < 200; i++) {
    const r = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if (r.rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the gate never waited on the rival transaction');
}
