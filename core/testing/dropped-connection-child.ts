/**
 * A process that holds database connections while its test terminates their backends, to show a
 * lost connection fails one operation and never the process. Run with
 * `node --import tsx core/testing/dropped-connection-child.ts <mode> <application_name>`; it
 * reports each step as a JSON line on stdout, logs go to stderr, and it exits 0 when it recovered.
 * It installs no process-level handlers on purpose: the pool alone must be enough.
 *
 * Modes: `transaction` (inside withTransaction), `between` (inside withTransaction, between two
 * statements; the test cuts the TCP connection), `idle` (pooled idle clients), `saver-put` and
 * `saver-get` (PostgresSaver, blocked on a lock the test takes once the child says "ready").
 * Wherever the test has to act first, the child waits for a line on stdin.
 */
import { createInterface } from 'node:readline';
import { loadConfig } from '../config.js';
import { createPool, withTransaction } from '../pg-pool.js';
import { createLogger } from '../logger.js';

const [mode, applicationName] = process.argv.slice(2);
const config = loadConfig();
const logger = createLogger({ LOG_LEVEL: 'info' }, { name: 'dropped-connection-child', fd: 2 });
const pool = createPool(config.DATABASE_URL!, { max: 3, logger, applicationName });
const report = (step: string, extra: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ step, ...extra })}\n`);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const nextLine = () => lines.next();

async function expectRejection(p: Promise<unknown>): Promise<void> {
  try {
    await p;
    report('resolved');
  } catch (err) {
    report('rejected', { message: (err as Error).message, code: (err as { code?: string }).code });
  }
}

/** A checkpointer on this pool. Imported here only: the saver modes are the slow ones to load. */
async function checkpointer() {
  const [{ PostgresSaver }, { emptyCheckpoint, uuid6 }] = await Promise.all([
    import('@langchain/langgraph-checkpoint-postgres'),
    import('@langchain/langgraph-checkpoint'),
  ]);
  // The library's own serializer: what matters here is the saver's use of the pool.
  const saver = new PostgresSaver(pool);
  const config = (threadId: string) => ({ configurable: { thread_id: threadId, checkpoint_ns: '' } });
  return {
    newThread: () => uuid6(1),
    put: (threadId: string) => {
      const checkpoint = emptyCheckpoint();
      checkpoint.channel_values = { note: 'x'.repeat(2000) };
      checkpoint.channel_versions = { note: 1 };
      return saver.put(config(threadId), checkpoint, { source: 'input', step: -1, parents: {} }, { note: 1 });
    },
    get: (threadId: string) => saver.getTuple(config(threadId)),
  };
}

switch (mode) {
  case 'transaction': {
    const tx = withTransaction(pool, (c) => c.query('SELECT pg_sleep(10)'));
    report('holding');
    await expectRejection(tx);
    break;
  }
  case 'between': {
    // Checked out, no query running: a pooler cutting the connection now is an 'error' event
    // with no query to fail, only the client's own listener to hear it.
    let resume: () => void = () => undefined;
    const proceed = new Promise<void>((r) => (resume = r));
    const tx = withTransaction(pool, async (c) => {
      await c.query('SELECT 1');
      report('holding');
      await proceed;
      await c.query('SELECT 2');
    });
    await nextLine();
    resume();
    await expectRejection(tx);
    break;
  }
  case 'idle': {
    const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
    for (const c of clients) c.release();
    report('holding', { idle: pool.idleCount });
    await nextLine();
    // The test saw the backends gone; wait until this side has noticed too, so the next query
    // does not race the socket close.
    while (pool.totalCount > 0) await new Promise((r) => setTimeout(r, 10));
    break;
  }
  case 'saver-put': {
    const saver = await checkpointer();
    report('ready');
    await nextLine();
    const p = saver.put(saver.newThread());
    report('holding');
    await expectRejection(p);
    await nextLine();
    await saver.put(saver.newThread());
    break;
  }
  case 'saver-get': {
    const saver = await checkpointer();
    const threadId = saver.newThread();
    await saver.put(threadId);
    report('ready');
    await nextLine();
    const p = saver.get(threadId);
    report('holding');
    await expectRejection(p);
    await nextLine();
    if (!(await saver.get(threadId))) throw new Error('checkpoint not found after reconnecting');
    break;
  }
  default:
    throw new Error(`unknown mode ${mode}`);
}

const after = await pool.query<{ ok: number }>('SELECT 1 AS ok');
report('recovered', { ok: after.rows[0]?.ok });
await pool.end();
process.exit(0);
