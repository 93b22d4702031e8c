import { createRequire } from 'node:module';
import pino, { type Logger, type LoggerOptions } from 'pino';
import type { Config } from './config.js';

// pino-pretty (and what it pulls in) only for a terminal: a production or piped process never needs it,
// and keeps whatever it loads for its whole life. Required, not imported, so createLogger stays synchronous.
const loadPretty = () => createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');

export type { Logger };

/**
 * Fields of an error that are safe to print. Anything else is dropped: pg errors carry the whole
 * client (connection parameters, `secretKey`), HTTP client errors carry request headers, pg's
 * `detail` repeats row values (customer data).
 */
const SAFE_ERROR_FIELDS = [
  'code',
  'errno',
  'syscall',
  'severity',
  'routine',
  'constraint',
  'table',
  'column',
  'schema',
  'status',
  'statusCode',
] as const;
const MAX_DEPTH = 3;

/** Credentials that can end up inside a message or a stack: URL passwords, bearer tokens, Slack tokens. */
export function scrubSecrets(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]*@/gi, '$1***@')
    .replace(/(bearer\s+)[^\s"']+/gi, '$1***')
    .replace(/\bxox[a-z]-[a-z0-9-]+/gi, 'xox*-***')
    .replace(/\bxapp-[a-z0-9-]+/gi, 'xapp-***');
}

export interface SafeError {
  type?: string;
  message?: string;
  stack?: string;
  cause?: SafeError;
  errors?: SafeError[];
  [field: string]: unknown;
}

/** The `err` serializer: name, message, code, stack, cause and a whitelist of fields; never the object itself. */
export function safeError(err: unknown, depth = 0): SafeError {
  if (err === null || typeof err !== 'object') return { message: scrubSecrets(String(err)) };
  const e = err as Record<string, unknown>;
  const out: SafeError = {};
  const ctor = (err as object).constructor?.name;
  out.type = typeof e.type === 'string' && ctor === 'Object' ? e.type : ctor && ctor !== 'Object' ? ctor : undefined;
  if (typeof e.name === 'string' && e.name !== out.type) out.name = e.name;
  if (typeof e.message === 'string') out.message = scrubSecrets(e.message);
  for (const field of SAFE_ERROR_FIELDS) {
    const v = e[field];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      out[field] = typeof v === 'string' ? scrubSecrets(v) : v;
  }
  if (typeof e.stack === 'string') out.stack = scrubSecrets(e.stack);
  if (depth < MAX_DEPTH) {
    if (e.cause !== undefined) out.cause = safeError(e.cause, depth + 1);
    if (Array.isArray(e.errors)) out.errors = e.errors.slice(0, 10).map((x) => safeError(x, depth + 1));
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

const URL_KEYS = new Set(['DATABASE_URL', 'databaseUrl', 'connectionString', 'SMTP_URL', 'smtpUrl', 'MCP_URL']);
const SECRET_KEYS = [
  'password',
  'secretKey',
  'token',
  'accessToken',
  'apiKey',
  'api_key',
  'authorization',
  'Authorization',
  'cookie',
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'GOOGLE_API_KEY',
  'LANGFUSE_SECRET_KEY',
  'MANAGER_API_KEY',
  'API_KEY',
  'MCP_API_KEY',
  'MANAGER_API_KEYS',
  'MCP_STAFF_KEYS',
  'staffKeys',
  'client',
];
/** Paths pino blanks out wherever they appear at the top level or one level down (`req.headers` two). */
export const REDACT_PATHS = [...SECRET_KEYS, ...URL_KEYS].flatMap((k) => [k, `*.${k}`, `*.headers.${k}`]);

function censor(value: unknown, path: string[]): unknown {
  const key = path[path.length - 1] ?? '';
  // Keep where a URL points (useful when a connection fails), never its password.
  if (URL_KEYS.has(key) && typeof value === 'string') return scrubSecrets(value);
  return '[redacted]';
}

/** Other keys errors travel under (`reason` of a rejection): serialized only when they are errors. */
const ifError = (v: unknown) => (v instanceof Error ? safeError(v) : v);

const baseOptions: LoggerOptions = {
  serializers: { err: safeError, error: safeError, reason: ifError, cause: ifError },
  redact: { paths: REDACT_PATHS, censor },
};

/**
 * Logs for people on a terminal, JSON everywhere else: in production, when piped or collected,
 * always JSON. The same redaction and error serializers apply either way (they run before the
 * line is formatted).
 */
export function wantsPretty(config: Partial<Pick<Config, 'NODE_ENV'>>, fd: 1 | 2): boolean {
  if (config.NODE_ENV === 'production' || config.NODE_ENV === 'test') return false;
  return Boolean((fd === 1 ? process.stdout : process.stderr).isTTY);
}

/**
 * Structured logs. `fd` 2 is for processes whose stdout is a protocol (the stdio MCP server).
 * Bind thread_id / approval_id with `logger.child({...})` so one approval can be followed across workers.
 * Errors go through `safeError` and known secret fields are redacted, whoever logs them.
 */
export function createLogger(
  config: Pick<Config, 'LOG_LEVEL'> & Partial<Pick<Config, 'NODE_ENV'>>,
  opts: { name?: string; fd?: 1 | 2; destination?: pino.DestinationStream } = {},
): Logger {
  const fd = opts.fd ?? 1;
  const destination =
    opts.destination ??
    (wantsPretty(config, fd)
      ? loadPretty()({ destination: fd, sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss' })
      : pino.destination({ fd, sync: true }));
  return pino(
    { ...baseOptions, level: config.LOG_LEVEL, name: opts.name ?? 'support-agent', base: { pid: process.pid } },
    destination,
  );
}

export const silentLogger: Logger = pino({ ...baseOptions, level: 'silent' });
