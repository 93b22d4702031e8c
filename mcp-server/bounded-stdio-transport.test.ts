import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BoundedStdioServerTransport } from './bounded-stdio-transport.js';

async function harness(max: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const t = new BoundedStdioServerTransport(stdin, stdout, max);
  const got: unknown[] = [];
  const errors: string[] = [];
  t.onmessage = (m) => void got.push(m);
  t.onerror = (e) => void errors.push(e.message);
  await t.start();
  const out: string[] = [];
  stdout.on('data', (c) => out.push(String(c)));
  const tick = () => new Promise((r) => setImmediate(r));
  return { stdin, t, got, errors, out, tick };
}

describe('the bounded stdio transport', () => {
  it('reads messages split across chunks and several in one chunk', async () => {
    const h = await harness(1000);
    const a = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const b = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    h.stdin.write(a.slice(0, 10));
    h.stdin.write(`${a.slice(10)}\n${b}\r\n`);
    await h.tick();
    expect(h.got).toEqual([JSON.parse(a), JSON.parse(b)]);
  });

  it('drops a line over the limit, answers its request with an error, and keeps reading', async () => {
    const h = await harness(100);
    const big = JSON.stringify({ method: 'tools/call', params: { q: 'x'.repeat(500) }, jsonrpc: '2.0', id: 7 });
    h.stdin.write(big.slice(0, 60));
    h.stdin.write(big.slice(60, 300));
    h.stdin.write(`${big.slice(300)}\n`);
    h.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' })}\n`);
    await h.tick();
    expect(h.got).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
    expect(h.errors).toEqual(['discarded a message over 100 bytes']);
    expect(JSON.parse(h.out.join('').trim())).toMatchObject({
      id: 7,
      error: { code: -32600, message: expect.stringMatching(/too large/) },
    });
  });

  it('reports a line that is not JSON-RPC and goes on', async () => {
    const h = await harness(1000);
    h.stdin.write('not json\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await h.tick();
    expect(h.errors).toHaveLength(1);
    expect(h.got).toEqual([{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
  });
});
