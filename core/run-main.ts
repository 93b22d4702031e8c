import { ConfigError } from './config.js';
import { isConnectionError } from './pg-pool.js';
import { createLogger, safeError, type Logger } from './logger.js';

/**
 * Process-wide last resorts, for what escaped every caller:
 * - an unhandled rejection is one operation that failed and nobody awaited. Its stack already
 *   unwound through ordinary async frames, so the process is consistent; the approval ledger and
 *   the sweeper recover whatever approval it concerned. Exiting would drop every other thread's
 *   work on this worker, and nothing restarts it. Logged (a lost connection as a warning), never fatal.
 * - an uncaught exception from a lost database connection is an 'error' event of a client without
 *   a listener (ours all have one; a library's might not): that connection is gone and its queries
 *   were already rejected, so it is logged and the process goes on.
 * - any other uncaught exception unwound through synchronous code mid-way, leaving state nobody
 *   can vouch for (Node documents resuming as unsafe): logged, then exit 1.
 */
export function installProcessGuards(
  logger: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  process.on('unhandledRejection', (reason) => {
    if (isConnectionError(reason))
      logger.warn({ err: safeError(reason) }, 'database connection lost (unhandled rejection)');
    else logger.error({ err: safeError(reason) }, 'unhandled rejection');
  });
  process.on('uncaughtException', (err, origin) => {
    if (isConnectionError(err)) {
      logger.warn({ err: safeError(err), origin }, 'database connection lost (uncaught)');
      return;
    }
    logger.fatal({ err: safeError(err), origin }, 'uncaught exception, exiting');
    exit(1);
  });
}

/**
 * Entry-point wrapper: a configuration problem is one clear message naming the variable (exit 2),
 * anything else is logged with its stack (exit 1). The process guards log to stderr, which every
 * entry point keeps free (the stdio tool server's stdout is its protocol).
 */
export async function runMain(main: () => Promise<void>): Promise<void> {
  installProcessGuards(createLogger({ LOG_LEVEL: 'info' }, { name: 'process', fd: 2 }));
  try {
    await main();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    const e = safeError(err);
    process.stderr.write(`fatal: ${e.stack ?? e.message ?? String(err)}\n`);
    process.exit(1);
  }
}
