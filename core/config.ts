import { z } from 'zod';

/**
 * The only module that reads the environment. Everything else receives a typed `Config`.
 * Every variable is documented in `.env.example`; keep the two in step.
 */

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

const csv = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes'].includes(v)));

/** IANA's canonical names, read without building a formatter (see isTimeZone). */
let canonicalZones: Set<string> | undefined;

function isTimeZone(tz: string): boolean {
  // A formatter for a zone loads ICU's zone and locale data (~7 MB of RSS per process, issue 12),
  // which a worker idles without and its tool server may never need: the canonical list answers
  // for almost every configuration; aliases and odd spellings ('US/Eastern', 'UTC') ask ICU.
  canonicalZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonicalZones.has(tz)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** How long a proposed write waits for a decision before it expires. */
export type ApprovalExpiry =
  /** Until the end of the first business day after the day it was proposed (the default). */
  | { kind: 'next_business_day_end' }
  /** This many hours of opening time (nights, closed days and holidays don't count). */
  | { kind: 'business_hours'; hours: number }
  /** Wall-clock minutes, whatever the hours: short TTLs for tests and demos. */
  | { kind: 'minutes'; minutes: number };

const APPROVAL_EXPIRY_KINDS = ['next_business_day_end', 'business_hours', 'minutes'] as const;

export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: port(0),
  /** As root, where the embedded Postgres keeps what the `postgres` user must reach, when DATA_DIR is closed to it. */
  EMBEDDED_PG_STAGE_DIR: optionalString,

  PORT: port(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: optionalString,

  MCP_URL: optionalString.pipe(z.url().optional()),
  MCP_HTTP_PORT: port(3001),
  MCP_API_KEY: optionalString,
  // Staff credentials of the HTTP tool server, `name:key,...`: the only way to staff scope over HTTP;
  // the audit actor is `staff:<name>`. Keys of at least 16 characters, names and keys unique.
  MCP_STAFF_KEYS: csv
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}:\S{16,}$/,
            'each entry must be name:key (name: letters, digits, _ . -; key: 16 or more characters)',
          ),
      ),
    )
    .transform((entries) =>
      entries.map((e) => ({ name: e.slice(0, e.indexOf(':')), key: e.slice(e.indexOf(':') + 1) })),
    )
    .refine(
      (keys) =>
        new Set(keys.map((k) => k.name)).size === keys.length && new Set(keys.map((k) => k.key)).size === keys.length,
      'names and keys must be unique',
    ),
  // Host names (any port) and exact origins the HTTP tool server accepts besides loopback.
  MCP_ALLOWED_HOSTS: csv,
  MCP_ALLOWED_ORIGINS: csv,

  SLACK_BOT_TOKEN: optionalString,
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_APP_TOKEN: optionalString,
  SLACK_BOT_USER_ID: optionalString,
  SLACK_SUPPORT_CHANNEL: optionalString,
  // Channel ids private to one customer (Slack Connect, a per-customer private channel): replies there
  // stay in the thread. DMs are private by nature; in any other channel personal replies go by DM.
  SLACK_PRIVATE_CHANNELS: csv.pipe(
    z.array(z.string().regex(/^[CGD][A-Z0-9]{2,}$/, 'each entry must be a Slack channel id such as C0123ABCD')),
  ),
  SLACK_MANAGERS_CHANNEL: optionalString,
  SLACK_MANAGER_IDS: csv,
  SLACK_MANAGER_GROUP_ID: optionalString,
  LOCAL_SLACK_PORT: port(3002),

  GOOGLE_API_KEY: optionalString,
  GEMINI_MODEL: z.string().default('gemini-2.5-flash'),
  GEMINI_BASE_URL: optionalString.pipe(z.url().optional()),

  LANGFUSE_PUBLIC_KEY: optionalString,
  LANGFUSE_SECRET_KEY: optionalString,
  LANGFUSE_BASE_URL: optionalString.pipe(z.url().optional()),
  // LangChain's own LangSmith tracing switches (read by LangChain itself too); we only need to know
  // whether one is on, so that the light run context (agent/run-context.ts) stays out of its way.
  LANGSMITH_TRACING: optionalString,
  LANGSMITH_TRACING_V2: optionalString,
  LANGCHAIN_TRACING: optionalString,
  LANGCHAIN_TRACING_V2: optionalString,

  MANAGER_API_KEY: optionalString,
  // Named manager keys, `name:key,...`: a decision made with one is recorded as `api:<name>`.
  MANAGER_API_KEYS: csv.pipe(
    z.array(
      z.string().regex(/^[A-Za-z0-9_.-]{1,40}:\S+$/, 'each entry must be name:key (name: letters, digits, _ . -)'),
    ),
  ),
  API_KEY: optionalString,
  // Bearer token for GET /metrics on a non-loopback HOST (a manager key works too); unset and no
  // manager key there: /metrics is refused. On a loopback HOST it needs no key.
  METRICS_TOKEN: optionalString,
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(60),
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(10),

  // How long a proposed write waits for a manager (see approvalExpiry below and .env.example).
  APPROVAL_EXPIRY: optionalString.pipe(z.enum(APPROVAL_EXPIRY_KINDS).optional()),
  APPROVAL_BUSINESS_HOURS: optionalString.pipe(z.coerce.number<string>().int().positive().max(1000).optional()),
  APPROVAL_TTL_MINUTES: optionalString.pipe(z.coerce.number<string>().int().positive().optional()),
  SWEEPER_INTERVAL_SECONDS: z.coerce.number().int().positive().default(15),
  THREAD_LEASE_SECONDS: z.coerce.number().int().min(1).default(60),
  /** How long a message waits for its busy thread before it is queued (and answered right after). */
  THREAD_WAIT_MS: z.coerce.number().int().min(0).default(5000),
  /** Graph runs at once per worker; more wait their turn, up to MAX_QUEUED_RUNS, then 503. */
  MAX_CONCURRENT_RUNS: z.coerce.number().int().positive().default(8),
  MAX_QUEUED_RUNS: z.coerce.number().int().min(0).default(500),
  BUSINESS_TIMEZONE: z
    .string()
    .default('America/New_York')
    .refine(isTimeZone, 'must be an IANA time zone such as America/New_York'),
  FIXED_NOW: optionalString.pipe(z.iso.datetime({ offset: true }).optional()),

  SMTP_URL: optionalString.pipe(z.url().optional()),
  EMAIL_FROM: z.string().default('Brightwell Home Services <support@brightwell.example>'),
  SEED_DEMO: bool(true),
});

export type Config = z.infer<typeof ConfigSchema>;

/**
 * The expiry policy the three variables select. APPROVAL_EXPIRY names it; without it, a set
 * APPROVAL_TTL_MINUTES (the older wall-clock setting) or APPROVAL_BUSINESS_HOURS picks its kind, and
 * with neither a request waits until the end of the next business day. Setting both without saying
 * which one wins, or naming a kind without its number, is refused rather than guessed.
 */
export function approvalExpiry(
  c: Pick<Config, 'APPROVAL_EXPIRY' | 'APPROVAL_BUSINESS_HOURS' | 'APPROVAL_TTL_MINUTES'>,
): ApprovalExpiry {
  const r = resolveApprovalExpiry(c);
  if ('problem' in r) throw new ConfigError([r.problem]);
  return r;
}

function resolveApprovalExpiry(
  c: Pick<Config, 'APPROVAL_EXPIRY' | 'APPROVAL_BUSINESS_HOURS' | 'APPROVAL_TTL_MINUTES'>,
): ApprovalExpiry | { problem: { variable: string; message: string } } {
  const minutes = c.APPROVAL_TTL_MINUTES;
  const hours = c.APPROVAL_BUSINESS_HOURS;
  if (!c.APPROVAL_EXPIRY && minutes && hours) {
    return {
      problem: {
        variable: 'APPROVAL_EXPIRY',
        message:
          'APPROVAL_TTL_MINUTES and APPROVAL_BUSINESS_HOURS are both set: set APPROVAL_EXPIRY to say which applies',
      },
    };
  }
  const kind = c.APPROVAL_EXPIRY ?? (minutes ? 'minutes' : hours ? 'business_hours' : 'next_business_day_end');
  if (kind === 'minutes') {
    return minutes
      ? { kind, minutes }
      : { problem: { variable: 'APPROVAL_TTL_MINUTES', message: 'required with APPROVAL_EXPIRY=minutes' } };
  }
  if (kind === 'business_hours') {
    return hours
      ? { kind, hours }
      : { problem: { variable: 'APPROVAL_BUSINESS_HOURS', message: 'required with APPROVAL_EXPIRY=business_hours' } };
  }
  return { kind };
}

export class ConfigError extends Error {
  readonly code = 'config_invalid';
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(
      'Invalid configuration:\n' +
        problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n') +
        '\nSee .env.example for every variable and its meaning.',
    );
    this.name = 'ConfigError';
  }
}

/** Parse configuration once. Pass an explicit env in tests; production passes nothing. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '(root)'),
        message: issue.message,
      })),
    );
  }
  // Refused at start, with the other problems' wording, not on the first proposal.
  const expiry = resolveApprovalExpiry(result.data);
  if ('problem' in expiry) throw new ConfigError([expiry.problem]);
  return result.data;
}

/** Config for tests and tools: defaults plus overrides, never the ambient environment. */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...overrides });
}

/** Environment for a child process of ours (e.g. the stdio MCP server): ours plus overrides. */
export function childEnv(overrides: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...overrides })) if (v !== undefined) env[k] = v;
  return env;
}

export const slackMode = (c: Config): 'socket' | 'http' | 'local' =>
  c.SLACK_BOT_TOKEN && c.SLACK_SIGNING_SECRET ? (c.SLACK_APP_TOKEN ? 'socket' : 'http') : 'local';

export const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(\.\d{1,3}){3})$/i;

/**
 * HTTP API settings the product refuses to start with. Without API_KEY anyone who can reach
 * POST /chat can talk as any customer: fine on this machine (local development), not on an
 * interface others reach. One key standing for two identities would make either one both.
 */
export function apiConfigProblems(
  c: Pick<Config, 'HOST' | 'API_KEY' | 'MANAGER_API_KEY' | 'MANAGER_API_KEYS' | 'MCP_URL' | 'MCP_API_KEY'>,
): { variable: string; message: string }[] {
  const problems: { variable: string; message: string }[] = [];
  if (c.MCP_URL && !c.MCP_API_KEY) {
    // A shared tool server gives an unauthenticated caller the knowledge base only: every customer's
    // conversation would fail. Say so at start, not on the first customer message.
    problems.push({
      variable: 'MCP_API_KEY',
      message:
        'required with MCP_URL: the shared tool server acts for customers only for the agent key it was started with',
    });
  }
  if (!c.API_KEY && !LOOPBACK_HOST.test(c.HOST.trim())) {
    problems.push({
      variable: 'API_KEY',
      message:
        `HOST=${JSON.stringify(c.HOST)} is reachable beyond this machine: ` +
        'set API_KEY (POST /chat needs it), or bind HOST=127.0.0.1',
    });
  }
  const named = c.MANAGER_API_KEYS.map((e) => ({ name: e.slice(0, e.indexOf(':')), key: e.slice(e.indexOf(':') + 1) }));
  const keys = [c.MANAGER_API_KEY, c.API_KEY, ...named.map((n) => n.key)].filter(Boolean);
  if (new Set(keys).size !== keys.length) {
    problems.push({
      variable: 'MANAGER_API_KEYS',
      message:
        'the same key is configured twice (MANAGER_API_KEY, MANAGER_API_KEYS, API_KEY): give each identity its own key',
    });
  }
  const names = named.map((n) => n.name);
  if (new Set(names).size !== names.length || names.some((n) => n === 'manager' || n === 'client')) {
    problems.push({
      variable: 'MANAGER_API_KEYS',
      message: 'key names must be unique and not "manager" or "client" (those name MANAGER_API_KEY and API_KEY)',
    });
  }
  return problems;
}

export const tracingEnabled = (c: Config): boolean => Boolean(c.LANGFUSE_PUBLIC_KEY && c.LANGFUSE_SECRET_KEY);

/** Is LangChain's LangSmith tracer switched on (any of its four variables "true")? */
export const langSmithTracing = (c: Config): boolean =>
  [c.LANGSMITH_TRACING, c.LANGSMITH_TRACING_V2, c.LANGCHAIN_TRACING, c.LANGCHAIN_TRACING_V2].includes('true');
