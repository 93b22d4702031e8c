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
  /** Every statement run in database `name`, the costliest (planning + execution) first, or [] when not counted. */
  statementProfile(name: string): Promise<StatementProfileRow[]>;
  /** Connections opened and transactions committed in database `name` so far. */
  databaseActivity(name: string): Promise<{ sessions: number; commits: number; tables: Record<string, unknown>[] }>;
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

export interface StatementProfileRow {
  calls: number;
  plan_ms: number;
  exec_ms: number;
  query: string;
}

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
    // Planning is half of the product's statement time (no prepared statements behind a pooler): count it.
    await c.query(`ALTER SYSTEM SET pg_stat_statements.track_planning = on`);
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
    statementProfile: async (name) => {
      if (!countsStatements) return [];
      const r = await admin.query<StatementProfileRow>(
        `SELECT s.calls::int AS calls, round(s.total_plan_time::numeric, 2)::float8 AS plan_ms,
                round(s.total_exec_time::numeric, 2)::float8 AS exec_ms, s.query
           FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
          WHERE d.datname = $1 ORDER BY s.total_plan_time + s.total_exec_time DESC`,
        [name],
      );
      return r.rows;
    },
    databaseActivity: async (name) => {
      const r = await admin.query<{ sessions: number; commits: number }>(
        `SELECT sessions::int AS sessions, xact_commit::int AS commits FROM pg_stat_database WHERE datname = $1`,
        [name],
      );
      // Row traffic per table: the writes a conversation makes, which the statement counts do not show.
      const c = await connectClient(withDatabase(adminUrl!, name), { applicationName: 'bench-admin' });
      try {
        const t = await c.query(
          `SELECT relname, n_tup_ins::int AS ins, n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot,
                  n_tup_del::int AS del, (SELECT count(*)::int FROM pg_index i WHERE i.indrelid = s.relid) AS indexes
             FROM pg_stat_user_tables s ORDER BY n_tup_ins + n_tup_upd + n_tup_del DESC`,
        );
        return { ...(r.rows[0] ?? { sessions: 0, commits: 0 }), tables: t.rows };
      } finally {
        await c.end();
      }
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
