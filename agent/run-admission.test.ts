import { describe, expect, it } from 'vitest';
import { RunAdmission } from './run-admission.js';

describe('run admission', () => {
  it('runs at most `limit` at once, in arrival order, and refuses past the queue bound', async () => {
    const gate = new RunAdmission(2, 3);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const job = (i: number) =>
      gate.run(
        async () => {
          running++;
          peak = Math.max(peak, running);
          order.push(i);
          await new Promise<void>((r) => releases.push(r));
          running--;
          return i;
        },
        () => new Error('full'),
      );
    const jobs = [0, 1, 2, 3, 4].map(job);
    await expect(job(5)).rejects.toThrow('full');
    expect(gate.stats).toEqual({ active: 2, queued: 3, limit: 2 });
    for (let k = 0; k < 5; k++) {
      while (!releases.length) await new Promise((r) => setTimeout(r, 1));
      releases.shift()!();
    }
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(gate.stats).toEqual({ active: 0, queued: 0, limit: 2 });
  });

  it('a failing run frees its slot', async () => {
    const gate = new RunAdmission(1, 10);
    await expect(
      gate.run(
        async () => Promise.reject(new Error('boom')),
        () => new Error('full'),
      ),
    ).rejects.toThrow('boom');
    expect(
      await gate.run(
        async () => 7,
        () => new Error('full'),
      ),
    ).toBe(7);
    expect(gate.stats.active).toBe(0);
  });
});
