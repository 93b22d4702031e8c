import { execFileSync } from 'node:child_process';

/**
 * The stdio tool-server children of this process, read from `ps` rather than from the client,
 * so a test sees the processes as they are, whatever the client believes.
 */
export function toolServerChildren(): number[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are no children
  }
  return out
    .split('\n')
    .filter((line) => line.includes('mcp-server/stdio.ts'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Poll `probe` until it returns a value other than undefined, or fail after `deadlineMs` (a
 * generous bound: starting a child on a loaded machine can take many seconds).
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  deadlineMs = 60_000,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The one tool-server child there is once it has settled (a restart may briefly show two). */
export const soleChild = (exclude: number[] = []) =>
  eventually('a single tool-server child', () => {
    const pids = toolServerChildren().filter((p) => !exclude.includes(p));
    return pids.length === 1 ? pids[0] : undefined;
  });
