import type { Pool } from '../../core/db.js';

/**
 * Fixed one-minute windows counted in Postgres, so the limit holds across every worker. Uses wall
 * time: it protects processes, not business rules.
 */
export class RateLimiter {
  constructor(
    private readonly pool: Pool,
    private readonly perMinute: number,
  ) {}

  async hit(key: string): Promise<{ allowed: boolean; remaining: number; retryAfterSeconds: number }> {
    const now = Date.now();
    const windowStart = new Date(now - (now % 60_000));
    const r = await this.pool.query<{ count: number }>(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`,
      [key.slice(0, 200), windowStart],
    );
    const count = r.rows[0]!.count;
    // Old windows are dead weight; clear them now and then.
    if (count === 1 && Math.random() < 0.05) {
      void this.pool.query(`DELETE FROM rate_limits WHERE window_start < $1`, [new Date(now - 3_600_000)]).catch(() => undefined);
    }
    return {
      allowed: count <= this.perMinute,
      remaining: Math.max(0, this.perMinute - count),
      retryAfterSeconds: Math.ceil((windowStart.getTime() + 60_000 - now) / 1000),
    };
  }
}
