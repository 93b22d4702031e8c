/**
 * Checkpoint pending writes as the rows of `checkpoint_writes`, and the SQL that stores many of
 * them at once (agent/lean-postgres-saver.ts holds a turn's writes for the checkpoint after them).
 */

export interface WriteRow {
  thread: string;
  ns: string;
  checkpoint: string;
  task: string;
  idx: number;
  channel: string;
  type: string;
  blob: Buffer | null;
}
/**
 * Pending writes to store: a task's special writes (an interrupt, an error…, as the stock saver)
 * replace what the task stored before, its ordinary ones never do.
 */
export interface WriteRows {
  upsert: WriteRow[];
  keep: WriteRow[];
}

const rowKey = (r: WriteRow) => JSON.stringify([r.ns, r.checkpoint, r.task, r.idx]);

/**
 * Writes in the order they were given, as the stock saver's row-by-row statements would leave
 * them: a special write replaces an earlier one of its key, an ordinary one never does. Each key
 * once, since one statement may not touch a row twice.
 */
export function mergeRows(parts: WriteRows[]): WriteRows {
  const rows = new Map<string, { row: WriteRow; upsert: boolean }>();
  for (const p of parts) {
    for (const row of p.upsert) rows.set(rowKey(row), { row, upsert: true });
    for (const row of p.keep) if (!rows.has(rowKey(row))) rows.set(rowKey(row), { row, upsert: false });
  }
  const all = [...rows.values()];
  return {
    upsert: all.filter((r) => r.upsert).map((r) => r.row),
    keep: all.filter((r) => !r.upsert).map((r) => r.row),
  };
}

/**
 * The CTEs storing `WriteRows`, over parameters from `$first` on: one for the writes that replace,
 * one for those that never do, each only when it has rows. An INSERT over empty arrays stores
 * nothing but is still parsed and planned on every call, and most steps have only one kind.
 */
export function writesPart(rows: WriteRows, first: number): { ctes: string[]; params: unknown[] } {
  const ctes: string[] = [];
  const params: unknown[] = [];
  const insert = (name: string, rs: WriteRow[], conflict: string) => {
    if (!rs.length) return;
    const p = (i: number) => `$${first + params.length + i}`;
    ctes.push(`${name} AS (
       INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
         SELECT w.thread, w.ns, w.checkpoint, w.task, w.idx, w.channel, w.type, w.blob
         FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::int[],
                     ${p(5)}::text[], ${p(6)}::text[], ${p(7)}::bytea[])
           AS w(thread, ns, checkpoint, task, idx, channel, type, blob)
         ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) ${conflict}
     )`);
    params.push(...columns(rs));
  };
  insert(
    'writes_upsert',
    rows.upsert,
    'DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob',
  );
  insert('writes_keep', rows.keep, 'DO NOTHING');
  return { ctes, params };
}

const columns = (rs: WriteRow[]) => [
  rs.map((r) => r.thread),
  rs.map((r) => r.ns),
  rs.map((r) => r.checkpoint),
  rs.map((r) => r.task),
  rs.map((r) => r.idx),
  rs.map((r) => r.channel),
  rs.map((r) => r.type),
  rs.map((r) => r.blob),
];
