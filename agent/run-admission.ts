import { admissionQueueDepth, graphRuns } from '../core/metrics.js';

/**
 * Admission control for graph runs on one worker: at most `limit` run at once, the rest wait in
 * FIFO order, and past `maxQueued` waiting a caller is refused at once. Without it, a burst (200
 * conversations at once) runs everything together: every run slows down, all finish late, and
 * memory grows with the burst. With it, latency degrades gracefully and memory stays bounded.
 */
export class RunAdmission {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limit: number,
    readonly maxQueued: number,
  ) {}

  get stats() {
    return { active: this.active, queued: this.waiting.length, limit: this.limit };
  }

  /** Run `fn` when a slot is free; `onFull` makes the error when the queue is full. */
  async run<T>(fn: () => Promise<T>, onFull: () => Error): Promise<T> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxQueued) {
        graphRuns.inc({ outcome: 'overloaded' });
        throw onFull();
      }
      admissionQueueDepth.inc();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next waiter (active stays the same), or free it.
      const next = this.waiting.shift();
      if (next) {
        admissionQueueDepth.dec();
        next();
      } else this.active--;
    }
  }
}
