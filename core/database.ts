import type { Config } from './config.js';
import type { Clock } from './clock.js';
import { createPool, describeUrl, type Pool } from './db.js';
import { startEmbeddedPostgres, type EmbeddedHandle } from './embedded-postgres.js';
import type { Logger } from './logger.js';
import { migrate } from '../schema/migrate.js';
import { seedDemo } from '../schema/seed/index.js';

export interface Database {
  pool: Pool;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Connect to DATABASE_URL, or to the embedded Postgres of DATA_DIR (started if needed), apply the
 * schema and the demo seed under one lock. After this point nothing depends on which one it was.
 */
export async function openDatabase(
  config: Config,
  deps: { logger: Logger; clock: Clock; migrate?: boolean; poolMax?: number; applicationName?: string },
): Promise<Database> {
  let embedded: EmbeddedHandle | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.DATA_DIR,
      port: config.EMBEDDED_PG_PORT,
      logger: deps.logger,
    });
    url = embedded.url;
  }
  const pool = createPool(url, { logger: deps.logger, max: deps.poolMax, applicationName: deps.applicationName });
  try {
    if (deps.migrate !== false) {
      const result = await migrate(pool, {
        logger: deps.logger,
        afterMigrate: config.SEED_DEMO
          ? async (client) => {
              await seedDemo(client, { clock: deps.clock, timeZone: config.BUSINESS_TIMEZONE, logger: deps.logger });
            }
          : undefined,
      });
      deps.logger.info({ database: describeUrl(url), embedded: Boolean(embedded), applied: result.applied }, 'database ready');
    }
  } catch (err) {
    await pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw err;
  }
  return {
    pool,
    url,
    embedded: Boolean(embedded),
    close: async () => {
      await pool.end().catch(() => undefined);
      await embedded?.stop();
    },
  };
}
