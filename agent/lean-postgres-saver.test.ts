import { emptyCheckpoint, uuid6 } from '@langchain/langgraph-checkpoint';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, type TestDatabase } from '../core/testing/test-database.js';
import { CompressedSerializer } from './compressed-serde.js';
import { LeanPostgresSaver } from './lean-postgres-saver.js';

/*
 * `sharingReads`: a turn's look at its thread and its run's first read are one statement, and a
 * write of the thread's checkpoints ends the sharing (the next read is a read again), so nobody
 * resumes from a checkpoint older than the newest.
 */

let db: TestDatabase;
let saver: LeanPostgresSaver;
const reads: string[] = [];
const statements: string[] = [];
let restore = () => {};

beforeAll(async () => {
  db = await createSeededDatabase();
  saver = new LeanPostgresSaver(db.pool, new CompressedSerializer());
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...a: unknown[]) {
    const text = typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string })?.text);
    if (/^\s*select[\s\S]*from ("public"\.)?checkpoints\b/i.test(text)) reads.push(text);
    statements.push(text);
    return query.apply(this, a);
  };
  restore = () => {
    proto.query = query;
  };
});
afterAll(async () => {
  restore();
  await db?.drop();
});

const cfg = (thread_id: string) => ({ configurable: { thread_id, checkpoint_ns: '' } });
async function put(threadId: string, value: string, parent?: string) {
  const cp = {
    ...emptyCheckpoint(),
    id: uuid6(-1),
    channel_values: { note: value },
    channel_versions: { note: value },
  };
  const config = { configurable: { thread_id: threadId, checkpoint_ns: '', checkpoint_id: parent } };
  return (await saver.put(config, cp, { source: 'loop', step: 0, parents: {} }, { note: value })).configurable!
    .checkpoint_id as string;
}
const note = async (threadId: string) =>
  ((await saver.getTuple(cfg(threadId)))?.checkpoint.channel_values as { note?: string } | undefined)?.note;

describe('sharingReads', () => {
  it('reads the newest checkpoint once until a write, then again', async () => {
    const first = await put('t:share', 'one');
    await saver.sharingReads('t:share', async () => {
      reads.length = 0;
      expect(await note('t:share')).toBe('one');
      expect(await note('t:share')).toBe('one');
      expect(reads).toHaveLength(1);
      await put('t:share', 'two', first);
      expect(await note('t:share')).toBe('two');
      expect(reads).toHaveLength(2);
    });
    // Outside the scope every read is a statement.
    reads.length = 0;
    await note('t:share');
    await note('t:share');
    expect(reads).toHaveLength(2);
  });

  it('shares "no checkpoint yet" too, and only for its own thread', async () => {
    await put('t:other', 'x');
    await saver.sharingReads('t:new', async () => {
      reads.length = 0;
      expect(await saver.getTuple(cfg('t:new'))).toBeUndefined();
      expect(await saver.getTuple(cfg('t:new'))).toBeUndefined();
      await note('t:other');
      await note('t:other');
      expect(reads).toHaveLength(3);
    });
  });
});

describe('pending writes inside sharingReads', () => {
  const at = (threadId: string, checkpointId: string) => ({
    configurable: { thread_id: threadId, checkpoint_ns: '', checkpoint_id: checkpointId },
  });
  const stored = async (threadId: string) =>
    (
      await db.pool.query<{ channel: string; n: number }>(
        `SELECT channel, count(*)::int AS n FROM checkpoint_writes
          WHERE thread_id = $1 GROUP BY channel ORDER BY channel`,
        [threadId],
      )
    ).rows;

  it('go out with the next checkpoint, in its statement', async () => {
    const first = await put('t:held', 'one');
    await saver.sharingReads('t:held', async () => {
      statements.length = 0;
      await saver.putWrites(at('t:held', first), [['note', 'a']], 'task-1');
      expect(statements, 'no statement of their own').toHaveLength(0);
      await put('t:held', 'two', first);
      expect(statements).toHaveLength(1);
      expect(await stored('t:held')).toEqual([{ channel: 'note', n: 1 }]);
    });
  });

  it('are read back, and stored when the scope ends with no checkpoint after them', async () => {
    const first = await put('t:interrupt', 'one');
    await saver.sharingReads('t:interrupt', async () => {
      await saver.putWrites(at('t:interrupt', first), [['__interrupt__', 'first']], 'task-1');
      // A special write replaces the one before it, as the stock saver's upsert does.
      await saver.putWrites(at('t:interrupt', first), [['__interrupt__', 'waiting']], 'task-1');
      const tuple = await saver.getTuple(cfg('t:interrupt'));
      expect(tuple?.pendingWrites?.map((w) => w.slice(1))).toEqual([['__interrupt__', 'waiting']]);
      await saver.putWrites(at('t:interrupt', first), [['note', 'late']], 'task-2');
    });
    expect(await stored('t:interrupt')).toEqual([
      { channel: '__interrupt__', n: 1 },
      { channel: 'note', n: 1 },
    ]);
  });
});
