/**
 * The Postgres both flows run on. Preferably a throw-away embedded cluster of the bench's own,
 * with pg_stat_statements preloaded (statement counts per database) and its server processes
 * visible in /proc (CPU of the postmaster and every backend). With DATABASE_URL the server is
 * shared with others: statements are counted only if the extension is already there, and the
 * server's CPU is not read at all.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { startEmbeddedPostgres } from '../../core/embedded-postgres.js';
import { clusterDir } from '../../core/embedded-postgres-staging.js';
import { connectClient } from '../../core/pg-pool.js';
import { readStat, treeCpuMs } from './proc.js';

export interface BenchCluster {
  adminUrl: string;
  embedded: boolean;
  /** pg_stat_statements is readable: statement counts per database. */
  countsStatements: boolean;
  /** Total top-level statements run so far in database `name`, or undefined when not counted. */
  statements(name: string): Promise<number | undefined>;
  /** CPU ms of the whole server (postmaster and all backends, live and exited), or undefined. */
  serverCpuMs(): number | undefined;
  /** A new empty database; its url. */
  createDatabase(prefix: string): Promise<{ name: string; url: string }>;
  stop(): Promise<void>;
}

const withDatabase = (adminUrl: string, name: string) => {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
};

export async function openCluster(databaseUrl: string | undefined): Promise<BenchCluster> {
  let dir: string | undefined;
  let stopServer: () => Promise<void> = async () => undefined;
  let adminUrl = databaseUrl;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(tmpdir(), 'support-agent-bench-pg-'));
    // Started, configured, restarted: shared_preload_libraries is read only at server start.
    const first = await startEmbeddedPostgres({ dataDir: dir, persistent: true });
    const c = await connectClient(first.url);
    await c.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
    await c.query(`ALTER SYSTEM SET pg_stat_statements.max = 20000`);
    await c.end();
    await first.stop();
    const handle = await startEmbeddedPostgres({ dataDir: dir, persistent: true });
    adminUrl = handle.url;
    stopServer = () => handle.stop();
  }
  const admin = await connectClient(adminUrl, { applicationName: 'bench-admin' });
  // A shared server is only read: the extension is created in the bench's own cluster alone.
  const countsStatements = await (dir
    ? admin.query(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`)
    : Promise.resolve()
  )
    .then(() => admin.query(`SELECT 1 FROM pg_stat_statements LIMIT 1`))
    .then(
      () => true,
      () => false,
    );
  const postmaster = dir ? await postmasterPid(admin) : undefined;
  const created: string[] = [];
  return {
    adminUrl,
    embedded: Boolean(dir),
    countsStatements,
    statements: async (name) => {
      if (!countsStatements) return undefined;
      const r = await admin.query<{ n: string | number }>(
        `SELECT coalesce(sum(s.calls), 0)::bigint AS n FROM pg_stat_statements s
           JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1`,
        [name],
      );
      return Number(r.rows[0]!.n);
    },
    serverCpuMs: () => (postmaster ? treeCpuMs([postmaster]) : undefined),
    createDatabase: async (prefix) => {
      const name = `${prefix}_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE "${name}"`);
      created.push(name);
      return { name, url: withDatabase(adminUrl!, name) };
    },
    stop: async () => {
      for (const name of created) {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      }
      await admin.end().catch(() => undefined);
      await stopServer().catch(() => undefined);
      if (dir) {
        rmSync(clusterDir(dir, process.getuid?.() === 0), { recursive: true, force: true });
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The postmaster is the parent of every backend: ours is one. */
async function postmasterPid(c: pg.Client): Promise<number | undefined> {
  const r = await c.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`);
  return readStat(r.rows[0]!.pid)?.ppid;
}
