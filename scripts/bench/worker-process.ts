/**
 * The flows under test run in worker processes of their own, as in a deployment: their CPU and
 * memory are read from the OS per process tree, and two workers really run in parallel. A worker
 * is compiled JavaScript (compiled.ts), run with plain node as production runs dist/. It prints
 * one JSON line when it listens, answers JSON-line commands on stdin, and stops when stdin closes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { childEnv } from '../../core/config.js';

export interface BenchWorker {
  url: string;
  pid: number;
  command(op: string): Promise<unknown>;
  stop(): Promise<void>;
}

/** Start `<tree>/scripts/bench/<name>.js` of a compiled tree (compiled.ts), with `nodeFlags` if any. */
export async function spawnWorker(
  tree: string,
  name: string,
  env: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<BenchWorker> {
  const entry = path.join(tree, 'scripts', 'bench', `${name}.js`);
  // The parent's NODE_OPTIONS may carry tsx's loader (npm run bench): the worker runs plain node.
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, entry], {
    env: childEnv({ LOG_LEVEL: 'silent', NODE_OPTIONS: undefined, ...env }),
    stdio: ['pipe', 'pipe', 'inherit'],
    cwd: path.dirname(tree),
  });
  const answers: ((v: unknown) => void)[] = [];
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench worker ${entry} exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const msg = JSON.parse(line) as { ready?: boolean; url?: string; answer?: unknown };
      if (msg.ready) resolve(msg.url!);
      else answers.shift()?.(msg.answer);
    });
  });
  return {
    url,
    pid: child.pid!,
    command: (op) =>
      new Promise((resolve) => {
        answers.push(resolve);
        child.stdin!.write(JSON.stringify({ op }) + '\n');
      }),
    stop: async () => {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The worker side: announce the url, answer commands, close when the parent goes. */
export function serveWorker(url: string, commands: Record<string, () => unknown>, close: () => Promise<void>): void {
  process.stdout.write(JSON.stringify({ ready: true, url }) + '\n');
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const { op } = JSON.parse(line) as { op: string };
    process.stdout.write(JSON.stringify({ answer: commands[op]?.() ?? null }) + '\n');
  });
  rl.on('close', () => {
    void close().finally(() => process.exit(0));
  });
}
