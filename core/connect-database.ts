import type { Config } from './config.js';
import { createPool, type Pool } from './pg-pool.js';
import { startEmbeddedPostgres, type EmbeddedHandle } from './embedded-postgres.js';
import type { Logger } from './logger.js';

export interface Database {
  pool: Pool;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Connect to DATABASE_URL, or to the embedded Postgres of DATA_DIR (started if needed). The schema
 * is not core's to know: `openDatabase` (schema/open-database.ts) migrates and seeds on top.
 */
export async function connectDatabase(
  config: Config,
  deps: { logger: Logger; poolMax?: number; applicationName?: string },
): Promise<Database> {
  let embedded: EmbeddedHandle | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.DATA_DIR,
      port: config.EMBEDDED_PG_PORT,
      stageDir: config.EMBEDDED_PG_STAGE_DIR,
      logger: deps.logger,
    });
    url = embedded.url;
  }
  const pool = createPool(url, { logger: deps.logger, max: deps.poolMax, applicationName: deps.applicationName });
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
