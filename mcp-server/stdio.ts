/**
 * The tool server as a stdio child (`npm run mcp:stdio`): one MCP session over stdin/stdout, the
 * way an agent worker (or any MCP client: Claude Desktop, an IDE) starts it. Shares the database
 * of `npm start`: DATABASE_URL, or the embedded Postgres already running for DATA_DIR.
 *
 * stdout carries the protocol and nothing else: logs go to stderr.
 *
 * Flags: --email-dispatcher  also deliver queued email from this process (npm start already runs
 *                            a dispatcher; several together are safe).
 *        --schema-ready      the database is migrated already: a worker's child (its parent applied the
 *                            schema before it started one, agent/tool-server-command.ts). Connects only.
 */
import { clockFromConfig } from '../core/clock.js';
import { markStopping } from '../core/shutdown.js';
import { loadConfig } from '../core/config.js';
import { connectDatabase } from '../core/connect-database.js';
import { createLogger } from '../core/logger.js';
import { runMain } from '../core/run-main.js';
import { startEmailDispatcher } from './email-dispatcher.js';
import { BoundedStdioServerTransport } from './bounded-stdio-transport.js';
import { createToolServer } from './server.js';

// Anything a library prints with console.log would corrupt the protocol stream.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

await runMain(async () => {
  const config = loadConfig();
  const logger = createLogger(config, { name: 'mcp-stdio', fd: 2 });
  const clock = clockFromConfig(config);
  const dbOptions = { logger, clock, applicationName: 'mcp-stdio', poolMax: 10 };
  // Migrating means loading LangGraph's checkpointer for its tables: about a third of this process's
  // memory, kept for its whole life. A worker's child skips it; run alone, the server migrates.
  const db = process.argv.includes('--schema-ready')
    ? await connectDatabase(config, dbOptions)
    : await (await import('../schema/open-database.js')).openDatabase(config, dbOptions);
  const server = createToolServer({ pool: db.pool, clock, timeZone: config.BUSINESS_TIMEZONE, logger });
  const dispatcher = process.argv.includes('--email-dispatcher')
    ? startEmailDispatcher({
        pool: db.pool,
        clock,
        logger,
        smtpUrl: config.SMTP_URL,
        dataDir: config.DATA_DIR,
        from: config.EMAIL_FROM,
        intervalMs: 5000,
      })
    : undefined;

  let stopping = false;
  const stop = async (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    markStopping();
    // A child stopping with its parent is not news; a failure is.
    logger[code ? 'error' : 'debug']({ reason }, 'shutting down');
    await server.close().catch(() => undefined);
    await dispatcher?.stop();
    await db.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // The parent went away (closed our stdin): nobody is left to talk to.
  process.stdin.on('end', () => void stop('stdin closed'));
  process.stdin.on('close', () => void stop('stdin closed'));

  // An oversized message is discarded and answered with an error (see bounded-stdio-transport.ts);
  // should the transport close anyway, exit, so the parent sees the session end and starts a new
  // child instead of keeping a process that never answers again.
  let lastError: string | undefined;
  const transport = new BoundedStdioServerTransport();
  transport.onerror = (err) => {
    lastError = err.message;
    logger.error({ err }, 'stdio transport error');
  };
  transport.onclose = () => void stop(`stdio transport closed${lastError ? `: ${lastError}` : ''}`, 1);
  await server.connect(transport);
  logger.info(
    { embedded_database: db.embedded, email: dispatcher?.transportName ?? 'off' },
    'MCP tool server ready on stdio',
  );
});
