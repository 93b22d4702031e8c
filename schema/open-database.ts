import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { connectDatabase, type Database } from '../core/connect-database.js';
import { describeUrl } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import { migrate } from './migrate.js';
import { seedDemo } from './seed/index.js';

/**
 * Connect (core/connect-database.ts), then apply the schema and the demo seed under one lock. After this
 * point nothing depends on whether the database is embedded or not.
 */
export async function openDatabase(
  config: Config,
  deps: { logger: Logger; clock: Clock; migrate?: boolean; poolMax?: number; applicationName?: string },
): Promise<Database> {
  const db = await connectDatabase(config, deps);
  if (deps.migrate === false) return db;
  try {
    const result = await migrate(db.pool, {
      logger: deps.logger,
      afterMigrate: config.SEED_DEMO
        ? async (client) => {
            await seedDemo(client, { clock: deps.clock, timeZone: config.BUSINESS_TIMEZONE, logger: deps.logger });
          }
        : undefined,
    });
    deps.logger.info(
      { database: describeUrl(db.url), embedded: db.embedded, applied: result.applied },
      'database ready',
    );
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}
