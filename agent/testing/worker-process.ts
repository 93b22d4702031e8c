import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { childEnv } from '../../core/config.js';

/** The test side of `worker.ts`: send a command, await its answer. */
export class WorkerProcess {
  private next = 0;
  private waiting = new Map<number, (v: any) => void>();
  readonly ready: Promise<void>;
  readonly child: ChildProcess;

  constructor(databaseUrl: string, env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'agent/testing/worker.ts'], {
      env: childEnv({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', THREAD_LEASE_SECONDS: '2', ...env }),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let markReady: () => void;
    this.ready = new Promise((r) => (markReady = r));
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const msg = JSON.parse(line);
      if (msg.ready) return markReady();
      this.waiting.get(msg.id)?.(msg);
      this.waiting.delete(msg.id);
    });
  }

  send(
    op: string,
    args: Record<string, unknown> = {},
  ): Promise<{ ok: boolean; result?: any; error?: { code?: string; message: string } }> {
    const id = ++this.next;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin!.write(JSON.stringify({ id, op, ...args }) + '\n');
    });
  }

  kill(signal: NodeJS.Signals = 'SIGKILL') {
    this.child.kill(signal);
    return new Promise((r) =>
      this.child.exitCode !== null || this.child.signalCode ? r(undefined) : this.child.once('exit', r),
    );
  }

  async stop() {
    this.child.stdin!.end();
    await new Promise((r) =>
      this.child.exitCode !== null || this.child.signalCode ? r(undefined) : this.child.once('exit', r),
    );
  }
}
