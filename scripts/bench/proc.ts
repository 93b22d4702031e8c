/**
 * CPU and memory as the OS accounts them, read from /proc: what a process tree really cost,
 * including children that already exited (a Postgres backend that closed, a restarted tool server).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times; 100 on every Linux we run on. */
const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

export interface ProcStat {
  pid: number;
  ppid: number;
  /** CPU of the process itself plus its exited, reaped children, in ms. */
  cpuMs: number;
  rssBytes: number;
}

/** Fields after the command name, which may itself hold spaces and parentheses. */
export function parseStat(pid: number, text: string): ProcStat {
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): field n is rest[n - 3].
  const field = (n: number) => Number(rest[n - 3]);
  const ticks = field(14) + field(15) + field(16) + field(17); // utime stime cutime cstime
  return { pid, ppid: field(4), cpuMs: (ticks * 1000) / TICKS_PER_SECOND, rssBytes: field(24) * PAGE_BYTES };
}

export function readStat(pid: number): ProcStat | undefined {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // gone between listing and reading
  }
}

function allStats(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s) out.push(s);
  }
  return out;
}

/** A process and all its live descendants. */
export function processTree(root: number): ProcStat[] {
  const stats = allStats();
  const byParent = new Map<number, ProcStat[]>();
  for (const s of stats) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s]);
  const rootStat = stats.find((s) => s.pid === root);
  if (!rootStat) return [];
  const out = [rootStat];
  for (let i = 0; i < out.length; i++) out.push(...(byParent.get(out[i]!.pid) ?? []));
  return out;
}

/** CPU ms of a tree: live members plus what their exited children left in cutime/cstime. */
export const treeCpuMs = (roots: number[]): number =>
  roots.flatMap((r) => processTree(r)).reduce((a, s) => a + s.cpuMs, 0);

/** CPU ms of the trees below these roots (a worker's stdio tool server), without the roots' own. */
export const childrenCpuMs = (roots: number[]): number =>
  roots.flatMap((r) => processTree(r).slice(1)).reduce((a, s) => a + s.cpuMs, 0);

export const treeRssBytes = (root: number): number => processTree(root).reduce((a, s) => a + s.rssBytes, 0);

/** The command line of each live process of a tree, root first ('' for one gone meanwhile). */
export const treeCommands = (root: number): string[] =>
  processTree(root).map((s) => {
    try {
      return readFileSync(`/proc/${s.pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      return '';
    }
  });

/** CPU ticks of the whole machine so far, busy (everything but idle and iowait) and in all. */
export function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - fields[3]! - (fields[4] ?? 0), total };
}
