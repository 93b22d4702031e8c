/** `npm run migrate`: apply the schema (and the demo seed unless SEED_DEMO=false), then exit. */
import { loadConfig } from '../core/config.js';
import { clockFromConfig } from '../core/clock.js';
import { createLogger } from '../core/logger.js';
import { openDatabase } from '../schema/open-database.js';
import { runMain } from '../core/run-main.js';

await runMain(async () => {
  const config = loadConfig();
  const logger = createLogger(config, { name: 'migrate' });
  const db = await openDatabase(config, { logger, clock: clockFromConfig(config), poolMax: 3 });
  await db.close();
});
