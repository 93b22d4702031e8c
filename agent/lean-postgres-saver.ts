import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { RunnableConfig } from '@langchain/core/runnables';
import type pg from 'pg';
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  CheckpointTuple,
  PendingWrite,
  SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import { WRITES_IDX_MAP } from '@langchain/langgraph-checkpoint';
import { mergeRows, writesPart, type WriteRows } from './checkpoint-write-rows.js';

/** A row of the stock saver's checkpoint query. */
interface CheckpointRow {
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  checkpoint: Omit<Checkpoint, 'channel_values'> & { v: number };
  channel_values: [Uint8Array, Uint8Array, Uint8Array][];
  metadata: Record<string, unknown>;
  pending_writes: [Uint8Array, Uint8Array, Uint8Array, Uint8Array][];
}

const bytes = (b: Uint8Array | undefined) => (b ? Buffer.from(b.buffer, b.byteOffset, b.byteLength) : null);

/**
 * PostgresSaver with the same tables, rows and atomicity, in one statement per call instead of
 * BEGIN, one INSERT per blob or write, COMMIT: a `put` is one statement that writes its blobs and
 * its checkpoint together (a statement is atomic as the transaction was), a `putWrites` one
 * multi-row INSERT. The checkpointer was four fifths of the product's statements per message.
 *
 * `prune` bounds a thread's history: LangGraph only ever reads a thread's newest checkpoint here
 * (no time travel), so older ones are dead weight.
 *
 * `sharingReads` lets a turn read its thread's newest checkpoint once: the service's look at the
 * thread before a run and the run's own first read are one statement. Inside it a step's pending
 * writes also go out with the checkpoint that follows them, in its statement (LangGraph puts one
 * right after every step's writes), or before anything reads the thread, or as the scope ends.
 */
export class LeanPostgresSaver extends PostgresSaver {
  // The stock saver keeps its pool private.
  private readonly db: pg.Pool;

  /** Threads inside `sharingReads`: their newest checkpoint row as last read (null: none), until a write. */
  private readonly shared = new Map<string, { depth: number; row?: CheckpointRow | null }>();

  /** Pending writes of threads inside `sharingReads` not yet in Postgres, in the order LangGraph gave them. */
  private readonly held = new Map<string, Promise<WriteRows>[]>();

  constructor(pool: pg.Pool, serde?: SerializerProtocol) {
    super(pool, serde);
    this.db = pool;
  }

  /**
   * Within `fn`, reads of the thread's newest checkpoint are served from the last one until the
   * thread's checkpoints are written. Only for a caller holding the thread's lease: no other
   * process writes them meanwhile, and every write of this one goes through here.
   */
  async sharingReads<T>(threadId: string, fn: () => Promise<T>): Promise<T> {
    const entry = this.shared.get(threadId) ?? { depth: 0 };
    entry.depth++;
    this.shared.set(threadId, entry);
    try {
      return await fn();
    } finally {
      if (--entry.depth === 0) {
        this.shared.delete(threadId);
        // A step's writes with no checkpoint after them (an interrupt's, an error's): stored now,
        // before the caller lets go of the thread.
        await this.flush(threadId);
      }
    }
  }

  /** Store the thread's held writes, if it has any (one statement). */
  private async flush(threadId: string): Promise<void> {
    const rows = await this.takeHeld(threadId);
    if (!rows) return;
    const writes = writesPart(rows, 1);
    try {
      if (writes.ctes.length) await this.db.query(`WITH ${writes.ctes.join(', ')} SELECT 1`, writes.params);
    } finally {
      // A read while they were held may have kept a row without them.
      this.wrote(threadId);
    }
  }

  /** The thread's held writes, taken out for the statement that stores them. */
  private async takeHeld(threadId: string): Promise<WriteRows | undefined> {
    const held = this.held.get(threadId);
    if (!held?.length) return undefined;
    this.held.delete(threadId);
    return mergeRows(await Promise.all(held));
  }

  override async *list(config: RunnableConfig, options?: Parameters<PostgresSaver['list']>[1]) {
    const threadId = config.configurable?.thread_id;
    if (threadId) await this.flush(threadId);
    yield* super.list(config, options);
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id, checkpoint_ns = '', checkpoint_id } = config.configurable ?? {};
    // What is read includes the pending writes LangGraph was told are saved.
    await this.flush(thread_id);
    const entry = this.shared.get(thread_id);
    if (!entry || checkpoint_id || checkpoint_ns !== '') return super.getTuple(config);
    if (entry.row === undefined) {
      const sql = (this as unknown as { SQL_STATEMENTS: { SELECT_SQL: string } }).SQL_STATEMENTS.SELECT_SQL;
      const r = await this.db.query<CheckpointRow>(
        `${sql}WHERE thread_id = $1 AND checkpoint_ns = $2 ORDER BY checkpoint_id DESC LIMIT 1`,
        [thread_id, checkpoint_ns],
      );
      entry.row = r.rows[0] ?? null;
    }
    const row = entry.row;
    if (!row) return undefined;
    // Checkpoints of an older format need the stock saver's migration of their pending sends.
    if (row.checkpoint.v < 4 && row.parent_checkpoint_id != null) return super.getTuple(config);
    const at = (id: string) => ({ configurable: { thread_id, checkpoint_ns, checkpoint_id: id } });
    return {
      config: at(row.checkpoint_id),
      // LangGraph updates a loaded checkpoint's version maps in place: each read gets its own.
      checkpoint: await this._loadCheckpoint(structuredClone(row.checkpoint), row.channel_values),
      metadata: await this._loadMetadata(row.metadata),
      parentConfig: row.parent_checkpoint_id ? at(row.parent_checkpoint_id) : undefined,
      pendingWrites: await this._loadWrites(row.pending_writes),
    };
  }

  /** A write of the thread's checkpoints: what `sharingReads` kept is stale. */
  private wrote(threadId: string) {
    const entry = this.shared.get(threadId);
    if (entry) entry.row = undefined;
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new Error(`Missing "configurable" field in "config" param`);
    const { thread_id } = config.configurable;
    this.wrote(thread_id);
    try {
      return await this.putRow(config, checkpoint, metadata, newVersions);
    } finally {
      // A read while the write was on its way may have kept the row it replaces.
      this.wrote(thread_id);
    }
  }

  private async putRow(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const { thread_id, checkpoint_ns = '', checkpoint_id } = config.configurable!;
    const [blobs, meta, writes] = await Promise.all([
      this._dumpBlobs(thread_id, checkpoint_ns, checkpoint.channel_values, newVersions),
      this._dumpMetadata(metadata),
      this.takeHeld(thread_id),
    ]);
    // The checkpoint's row from $1 to $6, then its new blobs and the held writes, each only when
    // there are some: the statement stores them all.
    const ctes: string[] = [];
    const params: unknown[] = [
      thread_id,
      checkpoint_ns,
      checkpoint.id,
      checkpoint_id,
      this._dumpCheckpoint(checkpoint),
      meta,
    ];
    if (blobs.length) {
      ctes.push(`blobs AS (
         INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
         SELECT $1, $2, b.channel, b.version, b.type, b.blob
         FROM unnest($7::text[], $8::text[], $9::text[], $10::bytea[]) AS b(channel, version, type, blob)
         ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
       )`);
      params.push(
        blobs.map((b) => b[2]),
        blobs.map((b) => b[3]),
        blobs.map((b) => b[4]),
        blobs.map((b) => bytes(b[5])),
      );
    }
    if (writes) {
      const held = writesPart(writes, params.length + 1);
      ctes.push(...held.ctes);
      params.push(...held.params);
    }
    await this.db.query(
      `${ctes.length ? `WITH ${ctes.join(', ')} ` : ''}
       INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
       DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`,
      params,
    );
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    if (!writes.length) return;
    const { thread_id, checkpoint_ns = '' } = config.configurable ?? {};
    this.wrote(thread_id);
    const rows = this.writeRows(config, writes, taskId);
    if (this.shared.has(thread_id) && checkpoint_ns === '') {
      // Held for the checkpoint LangGraph puts next; every read of the thread stores them first.
      const held = this.held.get(thread_id) ?? [];
      held.push(rows);
      this.held.set(thread_id, held);
      await rows;
      return;
    }
    const stored = writesPart(mergeRows([await rows]), 1);
    try {
      await this.db.query(`WITH ${stored.ctes.join(', ')} SELECT 1`, stored.params);
    } finally {
      this.wrote(thread_id);
    }
  }

  private async writeRows(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<WriteRows> {
    const upsert = writes.every((w) => w[0] in WRITES_IDX_MAP);
    const { thread_id, checkpoint_ns, checkpoint_id } = config.configurable ?? {};
    const dumped = await this._dumpWrites(thread_id, checkpoint_ns, checkpoint_id, taskId, writes);
    const rows = dumped.map((r) => ({
      thread: r[0] as string,
      ns: r[1] as string,
      checkpoint: r[2] as string,
      task: r[3] as string,
      idx: r[4] as number,
      channel: r[5] as string,
      type: r[6] as string,
      blob: bytes(r[7] as Uint8Array),
    }));
    return upsert ? { upsert: rows, keep: [] } : { upsert: [], keep: rows };
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
      `WITH ${this.pruneSql('$1', keep)} SELECT count(*)::int AS n FROM prune_gone`,
      [threadId],
    );
    return r.rows[0]?.n ?? 0;
  }

  /**
   * `prune` as CTEs (`prune_kept`, `prune_gone`, …) over the thread id parameter `threadParam`:
   * for a statement that prunes beside other work, e.g. releasing the thread's lease.
   */
  pruneSql(threadParam: string, keep: number): string {
    if (!Number.isInteger(keep) || keep < 1) throw new Error(`keep must be a positive integer, not ${keep}`);
    const t = threadParam;
    return `prune_kept AS (
         SELECT checkpoint_id, checkpoint FROM checkpoints
         WHERE thread_id = ${t} AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT ${keep}
       ),
       prune_gone AS (
         DELETE FROM checkpoints c
         WHERE c.thread_id = ${t} AND c.checkpoint_ns = ''
           AND c.checkpoint_id NOT IN (SELECT checkpoint_id FROM prune_kept)
         RETURNING c.checkpoint_id
       ),
       prune_writes AS (
         DELETE FROM checkpoint_writes w
         WHERE w.thread_id = ${t} AND w.checkpoint_ns = '' AND w.checkpoint_id IN (SELECT checkpoint_id FROM prune_gone)
       ),
       prune_live AS (
         SELECT e.key AS channel, e.value AS version
         FROM prune_kept CROSS JOIN LATERAL jsonb_each_text(prune_kept.checkpoint -> 'channel_versions') e
       ),
       prune_blobs AS (
         DELETE FROM checkpoint_blobs b
         WHERE b.thread_id = ${t} AND b.checkpoint_ns = '' AND EXISTS (SELECT 1 FROM prune_gone)
           AND NOT EXISTS (SELECT 1 FROM prune_live l WHERE l.channel = b.channel AND l.version = b.version)
       )`;
  }
}
