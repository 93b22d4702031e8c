import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from './free-port.js';

const listen = (port: number) =>
  new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });

describe('freePort', () => {
  it('picks below the kernel ephemeral range, where outgoing connections cannot take it', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low!);
    }
  });

  it('skips a port that is already listening', async () => {
    const taken = await freePort();
    const srv = await listen(taken);
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    // The first draw lands on the taken port, the second elsewhere.
    const first = (taken - 10_000 + 0.5) / (low! - 10_000);
    const random = vi
      .spyOn(Math, 'random')
      .mockReturnValueOnce(first)
      .mockReturnValueOnce(first / 2 + 0.01);
    try {
      const port = await freePort();
      expect(random).toHaveBeenCalledTimes(2);
      expect(port).not.toBe(taken);
    } finally {
      random.mockRestore();
      srv.close();
    }
  });
});
