import type { Pool } from '../core/pg-pool.js';

export class LeaseBusyError extends Error {
  readonly code = 'thread_busy';
  constructor(threadId: string) {
    super(`Conversation ${threadId} is busy; try again in a moment.`);
  }
}

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

  async tryAcquire(threadId: string): Promise<boolean> {
    const now = new Date();
    const r = await this.pool.query(
      `INSERT INTO thread_leases (thread_id, holder, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (thread_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE thread_leases.expires_at < $4
       RETURNING holder`,
      [threadId, this.holder, new Date(now.getTime() + this.ttlMs), now],
    );
    return r.rowCount === 1;
  }

  async release(threadId: string): Promise<void> {
    await this.pool.query(`DELETE FROM thread_leases WHERE thread_id = $1 AND holder = $2`, [threadId, this.holder]);
  }

  /** Run `fn` holding the thread's lease, waiting up to `waitMs` for it; renews while running. */
  async with<T>(threadId: string, fn: () => Promise<T>, waitMs = 30_000): Promise<T> {
    const deadline = Date.now() + waitMs;
    let delay = 25;
    while (!(await this.tryAcquire(threadId))) {
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
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      await this.release(threadId).catch(() => undefined);
    }
  }
}
