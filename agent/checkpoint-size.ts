import type { Queryable } from '../core/pg-pool.js';

/** Bytes a thread occupies in the checkpointer's tables (checkpoints, blobs, pending writes). */
export async function checkpointBytes(db: Queryable, threadId: string): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT (SELECT coalesce(sum(octet_length(checkpoint::text) + octet_length(metadata::text)), 0)
                FROM checkpoints WHERE thread_id = $1)
          + (SELECT coalesce(sum(octet_length(blob)), 0) FROM checkpoint_blobs WHERE thread_id = $1)
          + (SELECT coalesce(sum(octet_length(blob)), 0) FROM checkpoint_writes WHERE thread_id = $1) AS n`,
    [threadId],
  );
  return r.rows[0]!.n;
}
