import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../core/embedded-postgres.js';
import { spawnManaged, stopManaged, waitFor, type Managed } from './processes.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A minimal environment: nothing of the caller's (no DATABASE_URL, Slack or Google keys) leaks in. */
export function baseEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    NODE_ENV: 'production',
    ...extra,
  };
}

export interface Crash {
  worker: string;
  code: number | string;
  tail: string;
}

/**
 * One real `npm start` process (scripts/start.ts). A crash is an exit nobody asked for; it is
 * recorded with the tail of the worker's log as evidence.
 */
export class Worker {
  proc?: Managed;
  port = 0;
  url = '';
  generation = 0;
  constructor(
    readonly name: string,
    private readonly dir: string,
    private readonly env: Record<string, string>,
    private readonly crashes: Crash[],
    /** The entry point and its arguments (default: `npm start`'s). */
    private readonly entry: string[] = ['scripts/start.ts'],
  ) {}

  async start(timeoutMs = 90_000): Promise<void> {
    if (!this.port) this.port = await freePort();
    this.url = `http://127.0.0.1:${this.port}`;
    this.generation++;
    const logFile = path.join(this.dir, `${this.name}.${this.generation}.log`);
    const proc = spawnManaged(this.name, process.execPath, ['--import', 'tsx', ...this.entry], {
      cwd: ROOT,
      logFile,
      env: baseEnv({
        ...this.env,
        PORT: String(this.port),
        MCP_HTTP_PORT: String(this.port),
        DATA_DIR: path.join(this.dir, `${this.name}-data`),
      }),
    });
    this.proc = proc;
    void proc.exited.then((code) => {
      if (!proc.expectedExit)
        this.crashes.push({ worker: `${this.name}#${this.generation}`, code, tail: tail(proc.log()) });
    });
    const ready = await waitFor(
      async () => (proc.exitCode !== undefined ? 'exited' : (await this.healthy()) ? 'up' : undefined),
      timeoutMs,
      150,
    );
    if (ready !== 'up')
      throw new Error(`${this.name} did not become healthy (${ready ?? 'timeout'}): ${tail(proc.log())}`);
  }

  async healthy(): Promise<boolean> {
    try {
      const r = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(3_000) });
      await r.arrayBuffer();
      return r.status === 200;
    } catch {
      return false;
    }
  }

  get alive(): boolean {
    return Boolean(this.proc && this.proc.exitCode === undefined);
  }

  /** SIGKILL the whole group (worker and its stdio tool server), as a machine or container death would. */
  async kill(): Promise<void> {
    if (!this.proc) return;
    this.proc.signal('SIGKILL');
    await this.proc.exited;
  }

  async stop(): Promise<void> {
    if (this.proc) await stopManaged(this.proc);
  }

  log(): string {
    return this.proc?.log() ?? '';
  }
}

/** The end of a log, led by the first error line in it (a stack trace alone does not say what failed). */
export function tail(text: string, lines = 8): string {
  const all = text.trimEnd().split('\n');
  const last = all.slice(-40);
  const headline = last.find((l) => /(^|\s)(\w*Error\b|fatal:|"level":(50|60))/.test(l) && !/^\s+at /.test(l));
  const end = all.slice(-lines);
  return [...(headline && !end.includes(headline) ? [headline.slice(0, 400), '…'] : []), ...end].join('\n');
}

export function workerEnv(opts: {
  databaseUrl: string;
  apiKey?: string;
  managerKey: string;
  extra?: Record<string, string>;
}): Record<string, string> {
  return {
    DATABASE_URL: opts.databaseUrl,
    HOST: '127.0.0.1',
    LOCAL_SLACK_PORT: '0',
    SWEEPER_INTERVAL_SECONDS: '1',
    THREAD_LEASE_SECONDS: '5',
    ...(opts.apiKey ? { API_KEY: opts.apiKey } : {}),
    MANAGER_API_KEY: opts.managerKey,
    // The harness sends many requests from one address with one key.
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
    ...opts.extra,
  };
}
