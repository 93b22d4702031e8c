import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * Structured JSON logs. `fd` 2 is for processes whose stdout is a protocol (the stdio MCP server).
 * Bind thread_id / approval_id with `logger.child({...})` so one approval can be followed across workers.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, opts: { name?: string; fd?: 1 | 2 } = {}): Logger {
  return pino(
    { level: config.LOG_LEVEL, name: opts.name ?? 'support-agent', base: { pid: process.pid } },
    pino.destination({ fd: opts.fd ?? 1, sync: true }),
  );
}

export const silentLogger: Logger = pino({ level: 'silent' });
