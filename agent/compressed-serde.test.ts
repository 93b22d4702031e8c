import { gzipSync } from 'node:zlib';
import * as vitest from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { JsonPlusSerializer, emptyCheckpoint, uuid6, type SerializerProtocol } from '@langchain/langgraph-checkpoint';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { createEmptyDatabase, type TestDatabase } from '../core/testing/test-database.js';
import { CompressedSerializer } from './compressed-serde.js';

// The validation suite is written against Jest-style globals; this project does not turn them on.
Object.assign(globalThis, {
  describe: vitest.describe,
  it: vitest.it,
  test: vitest.test,
  expect: vitest.expect,
  beforeAll: vitest.beforeAll,
  afterAll: vitest.afterAll,
  beforeEach: vitest.beforeEach,
  afterEach: vitest.afterEach,
});
const { validate } = await import('@langchain/langgraph-checkpoint-validation');

let db: TestDatabase;
beforeAll(async () => {
  db = await createEmptyDatabase('serde');
  await new PostgresSaver(db.pool).setup();
});
afterAll(async () => {
  await db?.drop();
});

const clearCheckpoints = () => db.pool.query('TRUNCATE checkpoints, checkpoint_blobs, checkpoint_writes');

/** The serializer as it was before metadata was kept plain: rows it wrote must still load. */
class LegacySerializer implements SerializerProtocol {
  private readonly inner = new JsonPlusSerializer();
  async dumpsTyped(data: unknown): Promise<[string, Uint8Array]> {
    const [type, bytes] = await this.inner.dumpsTyped(data);
    if (bytes.byteLength < 1024) return [type, bytes];
    return ['gz+' + type, new Uint8Array(gzipSync(bytes))];
  }
  loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    return this.inner.loadsTyped(type, data);
  }
}

// Threshold 0: every value the saver hands the serializer takes the compressed path if it may.
validate({
  checkpointerName: 'PostgresSaver+CompressedSerializer(minBytes=0)',
  createCheckpointer: async () => {
    await clearCheckpoints();
    return new PostgresSaver(db.pool, new CompressedSerializer({ minBytes: 0 }));
  },
  destroyCheckpointer: async () => {
    await clearCheckpoints();
  },
});

describe('CompressedSerializer with PostgresSaver', () => {
  const thread = () => ({ configurable: { thread_id: uuid6(1), checkpoint_ns: '' } });
  const bigText = 'the quick brown fox jumps over the lazy dog; '.repeat(200);

  it('puts and reads back a checkpoint whose metadata exceeds 1 KiB, messages compressed', async () => {
    const saver = new PostgresSaver(db.pool, new CompressedSerializer());
    const config = thread();
    const checkpoint = emptyCheckpoint();
    const messages = [new HumanMessage({ content: bigText, id: 'h1' }), new AIMessage({ content: bigText, id: 'a1' })];
    checkpoint.channel_values = { messages };
    checkpoint.channel_versions = { messages: 1 };
    const metadata = { source: 'input' as const, step: -1, parents: {}, note: bigText };
    const saved = await saver.put(config, checkpoint, metadata, { messages: 1 });
    const tuple = await saver.getTuple(saved);
    expect(tuple?.metadata).toEqual(metadata);
    expect((tuple?.checkpoint.channel_values.messages as HumanMessage[]).map((m) => m.content)).toEqual([
      bigText,
      bigText,
    ]);
    const blob = await db.pool.query<{ type: string; n: number }>(
      `SELECT type, octet_length(blob) AS n FROM checkpoint_blobs WHERE thread_id = $1 AND channel = 'messages'`,
      [config.configurable.thread_id],
    );
    expect(blob.rows[0]?.type).toBe('gz+json');
    expect(blob.rows[0]!.n).toBeLessThan(bigText.length / 4);
    // Metadata stays queryable as jsonb (list() filters on it).
    const listed = [];
    for await (const t of saver.list(config, { filter: { note: bigText } })) listed.push(t);
    expect(listed).toHaveLength(1);
  });

  it('loads rows the earlier serializer wrote (a large plain-object value gzipped)', async () => {
    const config = thread();
    const checkpoint = emptyCheckpoint();
    const value = { drop: ['x'], append: [new AIMessage({ content: bigText, id: 'a2' })] };
    checkpoint.channel_values = { state: value };
    checkpoint.channel_versions = { state: 1 };
    const legacy = new PostgresSaver(db.pool, new LegacySerializer());
    const saved = await legacy.put(config, checkpoint, { source: 'loop', step: 1, parents: {} }, { state: 1 });
    await legacy.putWrites(saved, [['state', value]], 'task-1');
    const types = await db.pool.query<{ type: string }>(`SELECT type FROM checkpoint_blobs WHERE thread_id = $1`, [
      config.configurable.thread_id,
    ]);
    expect(types.rows.map((r) => r.type)).toEqual(['gz+json']);

    const tuple = await new PostgresSaver(db.pool, new CompressedSerializer()).getTuple(saved);
    const loaded = tuple?.checkpoint.channel_values.state as typeof value;
    expect(loaded.drop).toEqual(['x']);
    expect(loaded.append[0]!.content).toBe(bigText);
    expect((tuple?.pendingWrites?.[0]?.[2] as typeof value).append[0]!.content).toBe(bigText);
  });
});
