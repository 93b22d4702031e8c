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
let restore = () => {};

beforeAll(async () => {
  db = await createSeededDatabase();
  saver = new LeanPostgresSaver(db.pool, new CompressedSerializer());
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...a: unknown[]) {
    const text = typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string })?.text);
    if (/^\s*select[\s\S]*from ("public"\.)?checkpoints\b/i.test(text)) reads.push(text);
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
