import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/**
 * Every process the chaos harness starts, each in its own process group (detached), so one
 * signal to the group also reaches its children (a worker's stdio tool server). `killAll` runs on
 * success, on failure and on Ctrl-C: nothing the harness started outlives it.
 */
export interface Managed {
  name: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
  /** Set before we signal it, so an exit we asked for is not counted as a crash. */
  expectedExit: boolean;
  exitCode: number | string | undefined;
  /** Signal the whole group; `expected` marks the exit as ours. */
  signal(sig: NodeJS.Signals, expected?: boolean): void;
  log(): string;
}

const running = new Set<Managed>();

export function spawnManaged(
  name: string,
  command: string,
  args: string[],
  opts: SpawnOptions & { logFile: string },
): Managed {
  const fd = openSync(opts.logFile, 'a');
  const child = spawn(command, args, { ...opts, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (!child.pid) throw new Error(`could not start ${name}`);
  const m: Managed = {
    name,
    child,
    pid: child.pid,
    logFile: opts.logFile,
    expectedExit: false,
    exitCode: undefined,
    exited: new Promise((resolve) => {
      child.once('exit', (code, sig) => {
        m.exitCode = code ?? sig ?? 'unknown';
        running.delete(m);
        resolve(m.exitCode);
      });
    }),
    signal(sig, expected = true) {
      if (expected) m.expectedExit = true;
      try {
        process.kill(-m.pid, sig);
      } catch {
        /* already gone */
      }
    },
    log: () => {
      try {
        return readFileSync(opts.logFile, 'utf8');
      } catch {
        return '';
      }
    },
  };
  running.add(m);
  return m;
}

/** Graceful first (SIGTERM), then SIGKILL after `graceMs`. */
export async function stopManaged(m: Managed, graceMs = 8_000): Promise<void> {
  if (m.exitCode !== undefined) return;
  m.signal('SIGTERM');
  const timer = setTimeout(() => m.signal('SIGKILL'), graceMs);
  await m.exited;
  clearTimeout(timer);
  // The group may hold children that ignored SIGTERM.
  m.signal('SIGKILL');
}

export function killAllSync(): void {
  for (const m of running) m.signal('SIGKILL');
}

export const runningCount = () => running.size;

/** Run a command to completion, capturing its output (bounded by `timeoutMs`). */
export function run(
  command: string,
  args: string[],
  opts: SpawnOptions & { timeoutMs?: number } = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Poll `check` until it returns a value or the deadline passes (then `undefined`). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs: number,
  everyMs = 200,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v) return v as T;
    if (Date.now() > deadline) return undefined;
    await sleep(everyMs);
  }
}
