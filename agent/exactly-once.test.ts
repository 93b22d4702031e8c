import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, type TestDatabase } from '../core/testing/test-database.js';
import { WorkerProcess } from './testing/worker-process.js';

/*
 * Separate OS processes, a real Postgres, real races and real SIGKILLs. LangGraph's resume is
 * at-least-once; these tests show the product's writes are exactly-once anyway.
 */
let db: TestDatabase;
let a: WorkerProcess;
let b: WorkerProcess;
let n = 0;

const ticketsFor = async (approvalId: string) =>
  (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM tickets WHERE approval_id = $1`, [approvalId]))
    .rows[0]!.n;

async function proposeTicket(w: WorkerProcess) {
  const threadId = `xproc:${++n}`;
  const r = await w.send('message', { threadId, text: `please open a ticket #${n}` });
  expect(r.ok, r.error?.message).toBe(true);
  expect(r.result.status).toBe('pending_approval');
  return { threadId, approvalId: r.result.pending[0].id as string };
}

async function waitFor(check: () => Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  db = await createSeededDatabase();
  a = new WorkerProcess(db.url);
  b = new WorkerProcess(db.url);
  await Promise.all([a.ready, b.ready]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
});

describe('across processes', () => {
  it('a thread suspended by one process is approved and finished by another', async () => {
    const { approvalId } = await proposeTicket(a);
    const r = await b.send('decide', { approvalId, approver: 'slack:U01MGR0001' });
    expect(r.ok, r.error?.message).toBe(true);
    expect(r.result.approval.status).toBe('executed');
    expect(r.result.turn.reply).toMatch(/^EVENT executed/);
    expect(await ticketsFor(approvalId)).toBe(1);
  });

  it('20 rounds of two processes approving the same approval at the same instant: ' +
    'one decision, one write', async () => {
    let wins = 0;
    for (let round = 0; round < 20; round++) {
      const { approvalId } = await proposeTicket(round % 2 ? a : b);
      const [ra, rb] = await Promise.all([
        a.send('decide', { approvalId, approver: 'slack:U01MGR0001' }),
        b.send('decide', { approvalId, approver: 'slack:U01MGR0002' }),
      ]);
      const oks = [ra, rb].filter((r) => r.ok);
      expect(oks).toHaveLength(1);
      expect([ra, rb].find((r) => !r.ok)!.error!.code).toBe('already_decided');
      expect(await ticketsFor(approvalId)).toBe(1);
      wins += oks.length;
    }
    expect(wins).toBe(20);
  }, 120_000);

  it('two raw LangGraph resumes at once (no lease) run execute twice, and still write once', async () => {
    const { approvalId, threadId } = await proposeTicket(a);
    // Record the decision without resuming, then let both processes resume the interrupt directly.
    await db.pool.query(
      `UPDATE approvals SET status = 'approved', approver = 'test', decided_at = now() WHERE id = $1`,
      [approvalId],
    );
    const [ra, rb] = await Promise.all([
      a.send('raw_resume', { approvalId, threadId }),
      b.send('raw_resume', { approvalId, threadId }),
    ]);
    expect(ra.ok && rb.ok).toBe(true);
    expect(await ticketsFor(approvalId)).toBe(1);
    const executedEvents = await db.pool.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE approval_id = $1 AND action = 'executed'`,
      [approvalId],
    );
    expect(executedEvents.rows[0].n).toBe(1);
  });
});

describe('a worker killed inside execute', () => {
  type Stall = { arm(approvalId: string): Promise<void>; waitEvent: string; disarm(): Promise<void> };

  async function crashDuring(stall: Stall, committedBeforeCrash: boolean) {
    const victim = new WorkerProcess(db.url);
    await victim.ready;
    const { approvalId } = await proposeTicket(victim);
    await stall.arm(approvalId);
    void victim.send('decide', { approvalId, approver: 'slack:U01MGR0001' });
    // Wait until the victim is stuck at the chosen point inside execute.
    await waitFor(async () => {
      const r = await db.pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event = $1 AND pid <> pg_backend_pid()`,
        [stall.waitEvent],
      );
      return r.rows[0].n > 0;
    });
    const status = (await db.pool.query(`SELECT status FROM approvals WHERE id = $1`, [approvalId])).rows[0].status;
    expect(status).toBe(committedBeforeCrash ? 'executed' : 'executing');
    expect(await ticketsFor(approvalId)).toBe(committedBeforeCrash ? 1 : 0);
    await victim.kill('SIGKILL');
    await stall.disarm();
    // The survivor's sweeper finds decided work whose outcome never reached the conversation.
    await waitFor(async () => {
      const r = await b.send('sweep');
      expect(r.ok, r.error?.message).toBe(true);
      const row = (
        await db.pool.query(`SELECT status, outcome_delivered_at FROM approvals WHERE id = $1`, [approvalId])
      ).rows[0];
      return row.status === 'executed' && row.outcome_delivered_at !== null;
    }, 20_000);
    expect(await ticketsFor(approvalId)).toBe(1);
    const executed = await db.pool.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE approval_id = $1 AND action = 'executed'`,
      [approvalId],
    );
    expect(executed.rows[0].n).toBe(1);
    const transcript = await db.pool.query(
      `SELECT text FROM conversation_messages m JOIN approvals a ON a.thread_id = m.thread_id
        WHERE a.id = $1 AND m.role = 'agent' ORDER BY m.id`,
      [approvalId],
    );
    expect(transcript.rows.map((r) => r.text).join('\n')).toMatch(/EVENT executed/);
  }

  it('before the write committed: the sweeper executes it exactly once', async () => {
    let blocker: pg.Client;
    await crashDuring(
      {
        waitEvent: 'relation',
        arm: async () => {
          blocker = new pg.Client({ connectionString: db.url });
          await blocker.connect();
          await blocker.query('BEGIN');
          await blocker.query('LOCK TABLE tickets IN SHARE ROW EXCLUSIVE MODE');
        },
        disarm: async () => {
          await blocker.query('ROLLBACK');
          await blocker.end();
        },
      },
      false,
    );
  }, 60_000);

  it('after the write committed but before the checkpoint: ' +
    'the re-run returns the stored result, no second write', async () => {
    await crashDuring(
      {
        waitEvent: 'PgSleep',
        // The first checkpoint write after the ticket is committed stalls (a decision's run is
        // checkpointed at its end, so that is its one checkpoint), so the process dies with the
        // write done and LangGraph unaware of it.
        arm: async (approvalId) => {
          await db.pool.query(`CREATE OR REPLACE FUNCTION test_stall() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF EXISTS (SELECT 1 FROM approvals WHERE id = '${approvalId}' AND status = 'executed') THEN
                PERFORM pg_sleep(600);
              END IF;
              RETURN NEW;
            END $$`);
          for (const table of ['checkpoint_writes', 'checkpoints'])
            await db.pool.query(
              `CREATE TRIGGER test_stall BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION test_stall()`,
            );
        },
        disarm: async () => {
          // The stalled backend holds its locks on the checkpoint tables until it is gone.
          await db.pool.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE wait_event = 'PgSleep' AND datname = current_database()`,
          );
          for (const table of ['checkpoint_writes', 'checkpoints'])
            await db.pool.query(`DROP TRIGGER test_stall ON ${table}`);
        },
      },
      true,
    );
  }, 60_000);
});
