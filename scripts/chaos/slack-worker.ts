/**
 * A worker exactly as `npm start` runs it in local Slack mode, except that the local workspace's
 * signing secret is read from a file (argv[2]; not argv itself, which any user can list) instead of
 * generated, so the chaos harness can sign (and forge) Slack requests the way Slack would.
 */
import { readFileSync } from 'node:fs';
import { clockFromConfig } from '../../core/clock.js';
import { loadConfig } from '../../core/config.js';
import { freePort } from '../../core/embedded-postgres.js';
import { createLogger } from '../../core/logger.js';
import { localApiUrl, localConnection, startLocalWorkspace } from '../../bot/local-mode.js';
import { runMain } from '../../core/run-main.js';
import { startProduct } from '../product.js';

await runMain(async () => {
  const config = loadConfig();
  const file = process.argv[2];
  if (!file) throw new Error('usage: slack-worker.ts <file holding the signing secret>');
  const secret = readFileSync(file, 'utf8').trim();
  const logger = createLogger(config);
  const slackPort = await freePort();
  const connection = {
    ...localConnection({ apiUrl: localApiUrl(slackPort), managerIds: config.SLACK_MANAGER_IDS }),
    signingSecret: secret,
  };
  const product = await startProduct({ config, logger, clock: clockFromConfig(config), slack: { connection } });
  const local = await startLocalWorkspace(connection, {
    port: slackPort,
    eventsUrls: [`${product.url}/slack/events`],
    logger,
  });
  logger.info({ url: product.url, slack_console: local.url }, 'chaos slack worker ready');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await local.close();
    await product.close();
    process.exit(0);
  };
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
});
