import type { Pool } from '../../core/pg-pool.js';

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * Fixed one-minute windows counted in Postgres, so the limit holds across every worker. Uses wall
 * time (it protects processes, not business rules); tests pin `now` so no test straddles a window.
 */
export class RateLimiter {
  constructor(
    private readonly pool: Pool,
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Count one request against `key`. */
  async hit(key: string): Promise<RateDecision> {
    const now = this.now();
    const windowStart = windowOf(now);
    const r = await this.pool.query<{ count: number }>(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`,
      [key.slice(0, 200), windowStart],
    );
    const count = r.rows[0]!.count;
    this.sweepNowAndThen(count, now);
    return this.decision(count <= this.perMinute, count, now);
  }

  /** Old windows are dead weight; clear them now and then (on a window's first hit). */
  private sweepNowAndThen(count: number, now: number) {
    if (count === 1 && Math.random() < 0.05) {
      void this.pool
        .query(`DELETE FROM rate_limits WHERE window_start < $1`, [new Date(now - 3_600_000)])
        .catch(() => undefined);
    }
  }

  /**
   * `hit(key)`, unless `blocker`'s `blockerKey` has no budget left in this window (its `peek`):
   * one statement for both. `blocked` is that refusal; nothing is counted against `key` then.
   */
  async hitUnless(
    key: string,
    blocker: RateLimiter,
    blockerKey: string,
  ): Promise<{ blocked?: RateDecision; limit?: RateDecision }> {
    const now = this.now();
    const r = await this.pool.query<{ blocker: number | null; count: number | null }>(
      `WITH blocker AS (SELECT count FROM rate_limits WHERE key = $3 AND window_start = $2),
       hit AS (
         INSERT INTO rate_limits (key, window_start, count)
         SELECT $1, $2, 1 WHERE coalesce((SELECT count FROM blocker), 0) < $4
         ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count
       )
       SELECT (SELECT count FROM blocker) AS blocker, (SELECT count FROM hit) AS count`,
      [key.slice(0, 200), windowOf(now), blockerKey.slice(0, 200), blocker.perMinute],
    );
    const row = r.rows[0]!;
    if (row.count === null) return { blocked: blocker.decision(false, row.blocker ?? 0, now) };
    this.sweepNowAndThen(row.count, now);
    return { limit: this.decision(row.count <= this.perMinute, row.count, now) };
  }

  /** Whether `key` still has budget in this window, without spending any. */
  async peek(key: string): Promise<RateDecision> {
    const now = this.now();
    const r = await this.pool.query<{ count: number }>(
      `SELECT count FROM rate_limits WHERE key = $1 AND window_start = $2`,
      [key.slice(0, 200), windowOf(now)],
    );
    const count = r.rows[0]?.count ?? 0;
    return this.decision(count < this.perMinute, count, now);
  }

  private decision(allowed: boolean, count: number, now: number): RateDecision {
    return {
      allowed,
      remaining: Math.max(0, this.perMinute - count),
      retryAfterSeconds: Math.max(1, Math.ceil((windowOf(now).getTime() + 60_000 - now) / 1000)),
    };
  }
}

const windowOf = (now: number) => new Date(now - (now % 60_000));
