import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../core/embedded-postgres.js';
import { run, spawnManaged, stopManaged, waitFor, type Managed } from './processes.js';

export const PGBOUNCER_BIN = '/usr/sbin/pgbouncer';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The project's own set-up (like Chromium's): installs Debian's package when missing and allowed. */
export async function ensurePgbouncer(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const r = await run('bash', [path.join(ROOT, 'scripts', 'ensure-pgbouncer.sh')], { timeoutMs: 300_000 });
  if (r.code === 0 && existsSync(PGBOUNCER_BIN)) return { ok: true };
  return { ok: false, reason: r.out.trim().split('\n').slice(-2).join(' ') || `ensure-pgbouncer.sh exited ${r.code}` };
}

export interface Pgbouncer {
  port: number;
  url(database: string): string;
  process: Managed;
  stop(): Promise<void>;
}

/**
 * PgBouncer in transaction mode in front of the disposable cluster, with its own ini in our temp
 * folder. It refuses to run as root: as root it is told to switch to the `postgres` user (`-u`).
 */
export async function startPgbouncer(dir: string, upstreamPort: number): Promise<Pgbouncer> {
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  const users = path.join(dir, 'pgbouncer-users.txt');
  writeFileSync(users, '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${upstreamPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      'default_pool_size = 40',
      'server_reset_query =',
      // node-postgres sends no extra_float_digits, but other clients do; harmless to allow.
      'ignore_startup_parameters = extra_float_digits,options',
      // Fail fast while Postgres is down instead of queueing clients for the default 15 s.
      'server_connect_timeout = 3',
      'server_login_retry = 1',
      'admin_users = postgres',
      '',
    ].join('\n'),
  );
  chmodSync(ini, 0o644);
  chmodSync(users, 0o644);
  const asRoot = process.getuid?.() === 0;
  const proc = spawnManaged('pgbouncer', PGBOUNCER_BIN, [...(asRoot ? ['-u', 'postgres'] : []), ini], {
    logFile: path.join(dir, 'pgbouncer.log'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  const up = await waitFor(
    async () => (proc.exitCode !== undefined ? 'exited' : (await canConnect(port)) ? 'up' : undefined),
    15_000,
    100,
  );
  if (up !== 'up') {
    await stopManaged(proc);
    throw new Error(`pgbouncer did not start: ${proc.log().slice(-1500)}`);
  }
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    process: proc,
    stop: () => stopManaged(proc, 3_000),
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}
