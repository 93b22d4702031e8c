import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackProbe, webApiProbe } from './slack-probe.js';

// A stand-in Web API that counts auth.test calls and can be made slow or broken.
let server: Server;
let apiUrl: string;
let calls = 0;
let mode: 'ok' | 'slow' | 'invalid_auth' = 'ok';

beforeAll(async () => {
  server = createServer((_req, res) => {
    calls++;
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(mode === 'invalid_auth' ? { ok: false, error: 'invalid_auth' } : { ok: true }));
    };
    if (mode === 'slow') setTimeout(answer, 1500);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('SlackProbe', () => {
  it('calls auth.test at most once per max age, whatever the number of readiness checks', async () => {
    let now = 0;
    calls = 0;
    mode = 'ok';
    const probe = new SlackProbe(webApiProbe({ token: 'xoxb-test', apiUrl }), { maxAgeMs: 60_000, now: () => now });
    expect(await probe.check(1000)).toEqual({ ok: true, state: 'ok' });
    expect(await probe.check(1000)).toEqual({ ok: true, state: 'ok' });
    now += 59_000;
    await probe.check(1000);
    expect(calls).toBe(1);
    now += 2_000;
    await probe.check(1000);
    expect(calls).toBe(2);
  });

  it('never holds a readiness request longer than it is given; the answer lands for the next one', async () => {
    let now = 0;
    calls = 0;
    mode = 'slow';
    const probe = new SlackProbe(webApiProbe({ token: 'xoxb-test', apiUrl }), { maxAgeMs: 60_000, now: () => now });
    const t0 = Date.now();
    expect(await probe.check(200)).toEqual({ ok: false, state: 'checking' });
    expect(Date.now() - t0).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 1700));
    expect(await probe.check(200)).toEqual({ ok: true, state: 'ok' });
    expect(calls).toBe(1);
    now += 61_000;
    // Stale and being re-checked slowly: the last known answer stands meanwhile.
    expect(await probe.check(200)).toEqual({ ok: true, state: 'ok' });
  });

  it('reports a refused token and an unreachable API as unreachable', async () => {
    mode = 'invalid_auth';
    const refused = new SlackProbe(webApiProbe({ token: 'xoxb-test', apiUrl }), { maxAgeMs: 0 });
    expect(await refused.check(1000)).toMatchObject({ ok: false, state: 'unreachable', error: 'invalid_auth' });
    const closed = new SlackProbe(webApiProbe({ token: 'xoxb-test', apiUrl: 'http://127.0.0.1:9/api/' }), {
      maxAgeMs: 0,
    });
    expect(await closed.check(2000)).toMatchObject({ ok: false, state: 'unreachable' });
  });
});
