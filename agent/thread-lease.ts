import type { Pool } from '../core/pg-pool.js';

export class LeaseBusyError extends Error {
  readonly code = 'thread_busy';
  constructor(threadId: string) {
    super(`Conversation ${threadId} is busy; try again in a moment.`);
  }
}

/**
 * What a run reads in the statement that takes the lease: SQL expressions over `$1` (the thread
 * id), by name. A run starts from its lease anyway, so what it needs first costs no round trip.
 */
export type LeaseReads = Record<string, string>;

/** Keep the lease while `sql` (a condition over `$1`) holds, running `drain` each time: work that arrived. */
export interface LeaseHold {
  sql: string;
  drain: () => Promise<unknown>;
  /**
   * CTEs over `$1` the releasing statement runs too: upkeep of the thread's own rows that needs
   * the lease. If they fail, the lease is released on its own and they wait for the next release.
   */
  alongside?: string;
}

/** Times a release may find more work to drain before it lets go regardless (a bound, not a schedule). */
const MAX_DRAINS = 20;

/**
 * One graph run per thread at a time, across every worker: a row in `thread_leases` with an
 * expiry. A crashed worker's lease simply runs out. Row leases (not advisory locks) hold behind
 * transaction poolers. Uses wall time, not the business clock: leases are about processes.
 */
export class ThreadLeases {
  constructor(
    private readonly pool: Pool,
    private readonly holder: string,
    private readonly ttlMs = 60_000,
  ) {}

  /** Take the lease if it is free (or run out); with `reads`, their values as of the same statement. */
  async tryAcquire(threadId: string, reads: LeaseReads = {}): Promise<Record<string, unknown> | undefined> {
    const now = new Date();
    const names = Object.keys(reads);
    const r = await this.pool.query<Record<string, unknown> & { acquired: boolean }>(
      `WITH acquired AS (
         INSERT INTO thread_leases (thread_id, holder, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (thread_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
         WHERE thread_leases.expires_at < $4
         RETURNING holder
       )
       SELECT EXISTS (SELECT 1 FROM acquired) AS acquired${names.map((n, i) => `, ${reads[n]} AS r${i}`).join('')}`,
      [threadId, this.holder, new Date(now.getTime() + this.ttlMs), now],
    );
    const row = r.rows[0];
    if (!row?.acquired) return undefined;
    return Object.fromEntries(names.map((n, i) => [n, row[`r${i}`]]));
  }

  /**
   * Let go of the lease, unless `unless` (a condition over `$1`) holds: then false, and it is
   * still held. `alongside`: CTEs the same statement runs.
   */
  async release(threadId: string, unless?: string, alongside?: string): Promise<boolean> {
    if (!unless) {
      await this.pool.query(`DELETE FROM thread_leases WHERE thread_id = $1 AND holder = $2`, [threadId, this.holder]);
      return true;
    }
    // One statement, one snapshot: work that commits after it finds the lease gone (or waits on
    // this row lock and then finds it gone) and takes the lease itself.
    const r = await this.pool.query<{ held: boolean }>(
      `WITH hold AS (SELECT ${unless} AS held),
       released AS (
         DELETE FROM thread_leases WHERE thread_id = $1 AND holder = $2 AND NOT (SELECT held FROM hold)
       )${alongside ? `, ${alongside}` : ''}
       SELECT held FROM hold`,
      [threadId, this.holder],
    );
    return !r.rows[0]?.held;
  }

  /**
   * Run `fn` holding the thread's lease, waiting up to `waitMs` for it; renews while running.
   * `fn` gets `reads` as read when the lease was taken. With `hold`, the lease is kept after `fn`
   * for as long as its condition holds, its `drain` running each time.
   */
  async with<T>(
    threadId: string,
    fn: (reads: Record<string, unknown>) => Promise<T>,
    waitMs = 30_000,
    opts: { reads?: LeaseReads; hold?: LeaseHold } = {},
  ): Promise<T> {
    const deadline = Date.now() + waitMs;
    let delay = 25;
    let reads: Record<string, unknown> | undefined;
    while (!(reads = await this.tryAcquire(threadId, opts.reads))) {
      if (Date.now() > deadline) throw new LeaseBusyError(threadId);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 500);
    }
    const renew = setInterval(
      () => {
        void this.pool
          .query(`UPDATE thread_leases SET expires_at = $3 WHERE thread_id = $1 AND holder = $2`, [
            threadId,
            this.holder,
            new Date(Date.now() + this.ttlMs),
          ])
          .catch(() => undefined);
      },
      Math.max(1000, this.ttlMs / 3),
    );
    let released = false;
    try {
      const out = await fn(reads);
      for (let i = 0; opts.hold && i < MAX_DRAINS; i++) {
        const letGo = await this.release(threadId, opts.hold.sql, opts.hold.alongside).then(
          (r) => r,
          () => undefined, // the plain release below tries once more
        );
        if (letGo !== false) {
          released = letGo === true;
          break;
        }
        await opts.hold.drain();
      }
      return out;
    } finally {
      clearInterval(renew);
      if (!released) await this.release(threadId).catch(() => undefined);
    }
  }
}
