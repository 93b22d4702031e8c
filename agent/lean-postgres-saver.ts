import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { RunnableConfig } from '@langchain/core/runnables';
import type pg from 'pg';
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  PendingWrite,
  SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import { WRITES_IDX_MAP } from '@langchain/langgraph-checkpoint';

const bytes = (b: Uint8Array | undefined) => (b ? Buffer.from(b.buffer, b.byteOffset, b.byteLength) : null);

/**
 * PostgresSaver with the same tables, rows and atomicity, in one statement per call instead of
 * BEGIN, one INSERT per blob or write, COMMIT: a `put` is one statement that writes its blobs and
 * its checkpoint together (a statement is atomic as the transaction was), a `putWrites` one
 * multi-row INSERT. The checkpointer was four fifths of the product's statements per message.
 *
 * `prune` bounds a thread's history: LangGraph only ever reads a thread's newest checkpoint here
 * (no time travel), so older ones are dead weight.
 */
export class LeanPostgresSaver extends PostgresSaver {
  // The stock saver keeps its pool private.
  private readonly db: pg.Pool;

  constructor(pool: pg.Pool, serde?: SerializerProtocol) {
    super(pool, serde);
    this.db = pool;
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new Error(`Missing "configurable" field in "config" param`);
    const { thread_id, checkpoint_ns = '', checkpoint_id } = config.configurable;
    const [blobs, meta] = await Promise.all([
      this._dumpBlobs(thread_id, checkpoint_ns, checkpoint.channel_values, newVersions),
      this._dumpMetadata(metadata),
    ]);
    await this.db.query(
      `WITH blobs AS (
         INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
         SELECT $1, $2, b.channel, b.version, b.type, b.blob
         FROM unnest($7::text[], $8::text[], $9::text[], $10::bytea[]) AS b(channel, version, type, blob)
         ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
       )
       INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
       DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`,
      [
        thread_id,
        checkpoint_ns,
        checkpoint.id,
        checkpoint_id,
        this._dumpCheckpoint(checkpoint),
        meta,
        blobs.map((b) => b[2]),
        blobs.map((b) => b[3]),
        blobs.map((b) => b[4]),
        blobs.map((b) => bytes(b[5])),
      ],
    );
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    if (!writes.length) return;
    const upsert = writes.every((w) => w[0] in WRITES_IDX_MAP);
    const { thread_id, checkpoint_ns, checkpoint_id } = config.configurable ?? {};
    const dumped = await this._dumpWrites(thread_id, checkpoint_ns, checkpoint_id, taskId, writes);
    // One statement may not update a row twice: as the stock saver's row-by-row upserts, the last one wins.
    const rows = upsert ? [...new Map(dumped.map((r) => [r[4], r])).values()] : dumped;
    await this.db.query(
      `INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
       SELECT $1, $2, $3, $4, w.idx, w.channel, w.type, w.blob
       FROM unnest($5::int[], $6::text[], $7::text[], $8::bytea[]) AS w(idx, channel, type, blob)
       ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) ${
         upsert ? 'DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob' : 'DO NOTHING'
       }`,
      [
        thread_id,
        checkpoint_ns,
        checkpoint_id,
        taskId,
        rows.map((r) => r[4]),
        rows.map((r) => r[5]),
        rows.map((r) => r[6]),
        rows.map((r) => bytes(r[7])),
      ],
    );
  }

  /**
   * Keep a thread's newest `keep` checkpoints (the newest is the one a pending interrupt resumes
   * from, with its pending writes), their writes and every blob they reference; delete the rest.
   * One statement: it sees one snapshot, so a checkpoint being written at the same moment is
   * neither kept half nor deleted (the thread lease keeps runs of a thread apart anyway).
   * Returns the number of checkpoints deleted.
   */
  async prune(threadId: string, keep: number): Promise<number> {
    const r = await this.db.query<{ n: number }>(
      `WITH kept AS (
         SELECT checkpoint_id, checkpoint FROM checkpoints
         WHERE thread_id = $1 AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT $2
       ),
       gone AS (
         DELETE FROM checkpoints c
         WHERE c.thread_id = $1 AND c.checkpoint_ns = '' AND c.checkpoint_id NOT IN (SELECT checkpoint_id FROM kept)
         RETURNING c.checkpoint_id
       ),
       writes AS (
         DELETE FROM checkpoint_writes w
         WHERE w.thread_id = $1 AND w.checkpoint_ns = '' AND w.checkpoint_id IN (SELECT checkpoint_id FROM gone)
       ),
       live AS (
         SELECT e.key AS channel, e.value AS version
         FROM kept CROSS JOIN LATERAL jsonb_each_text(kept.checkpoint -> 'channel_versions') e
       ),
       blobs AS (
         DELETE FROM checkpoint_blobs b
         WHERE b.thread_id = $1 AND b.checkpoint_ns = '' AND EXISTS (SELECT 1 FROM gone)
           AND NOT EXISTS (SELECT 1 FROM live WHERE live.channel = b.channel AND live.version = b.version)
       )
       SELECT count(*)::int AS n FROM gone`,
      [threadId, keep],
    );
    return r.rows[0]?.n ?? 0;
  }
}
