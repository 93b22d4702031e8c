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
    private readonly perMinute: number,
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
    // Old windows are dead weight; clear them now and then.
    if (count === 1 && Math.random() < 0.05) {
      void this.pool
        .query(`DELETE FROM rate_limits WHERE window_start < $1`, [new Date(now - 3_600_000)])
        .catch(() => undefined);
    }
    return this.decision(count <= this.perMinute, count, now);
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
