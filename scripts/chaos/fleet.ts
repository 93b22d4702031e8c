import { Worker, workerEnv } from './workers.js';
import type { ChaosContext } from './context.js';

/** N `npm start` workers on one database (directly or through a pooler), started one after another. */
export async function startFleet(
  ctx: ChaosContext,
  opts: { prefix: string; databaseUrl: string; count: number; extra?: Record<string, string> },
): Promise<Worker[]> {
  const env = workerEnv({
    databaseUrl: opts.databaseUrl,
    apiKey: ctx.keys.apiKey,
    managerKey: ctx.keys.managerKey,
    extra: { ...(ctx.fixedNow ? { FIXED_NOW: ctx.fixedNow } : {}), ...opts.extra },
  });
  // All at once: migrations and the seed run once under their lock, whoever comes first.
  const workers = Array.from(
    { length: opts.count },
    (_, i) => new Worker(`${opts.prefix}${i + 1}`, ctx.dir, env, ctx.crashes),
  );
  await Promise.all(workers.map((w) => w.start()));
  return workers;
}

export async function stopFleet(workers: Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.stop()));
}

/** Run `fn` over `items` with at most `limit` at a time. */
export async function pool<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}
