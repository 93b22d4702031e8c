import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv } from '../core/config.js';
import { freePort } from '../core/embedded-postgres.js';

/** Every live process under `root`, from /proc (the test's view of what a stop must end). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone meanwhile */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp !== p || out.includes(child)) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

const dirs: string[] = [];
const groups: number[] = [];
afterAll(() => {
  for (const g of groups) {
    try {
      process.kill(-g, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** `npm start` exactly as a user types it, in its own process group (as a terminal gives it). */
async function npmStart(): Promise<{ npm: ChildProcess; output: () => string; tree: number[] }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'support-agent-stop-'));
  dirs.push(dataDir);
  const npm = spawn('npm', ['start'], {
    detached: true,
    env: childEnv({ DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(await freePort()), LOCAL_SLACK_PORT: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(npm.pid!);
  let out = '';
  npm.stdout!.on('data', (d) => (out += d));
  npm.stderr!.on('data', (d) => (out += d));
  expect(await waitFor(() => out.includes('support agent ready'), 90_000)).toBe(true);
  // The app, its tool server and the embedded Postgres.
  const tree = descendants(npm.pid!);
  expect(tree.length).toBeGreaterThanOrEqual(3);
  return { npm, output: () => out, tree };
}

describe('stopping npm start', () => {
  it('SIGTERM to the npm process ends every process it started within 10 s', async () => {
    const { npm, output, tree } = await npmStart();
    npm.kill('SIGTERM');
    const gone = await waitFor(() => tree.every((p) => !alive(p)), 10_000);
    expect(tree.filter(alive), output().slice(-2000)).toEqual([]);
    expect(gone).toBe(true);
    expect(output()).not.toMatch(/secretKey|postgres:postgres@/);
  }, 120_000);

  it('Ctrl-C (SIGINT to the whole group) stops cleanly: no error dumps, no secrets', async () => {
    const { npm, output, tree } = await npmStart();
    const before = output().length;
    process.kill(-npm.pid!, 'SIGINT');
    expect(await waitFor(() => tree.every((p) => !alive(p)), 10_000)).toBe(true);
    const tail = output().slice(before);
    expect(tail).not.toMatch(/secretKey|postgres:postgres@/);
    expect(tail).not.toMatch(/terminating connection due to administrator command/);
    expect(tail).not.toMatch(/"level":50|"level":60|Error:/);
    // One line says it stopped, and nothing else is printed.
    expect(tail.trim().split('\n'), tail).toEqual([expect.stringContaining('"msg":"stopped"')]);
  }, 120_000);
});
