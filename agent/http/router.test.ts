import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from './router.js';

/* A database outage is a state to wait out, not a bug: the API says so (503) instead of 500. */
const router = new Router()
  .on('GET', '/down', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  })
  .on('GET', '/terminated', async () => {
    throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  })
  .on('GET', '/bug', async () => {
    throw new TypeError('undefined is not a function');
  });
const errors: unknown[] = [];
const server = createServer((req, res) => void router.handle(req, res, (e) => void errors.push(e)));
let base = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('errors the API answers', () => {
  for (const path of ['/down', '/terminated']) {
    it(`a lost database (${path}) is 503 database_unavailable with Retry-After`, async () => {
      const res = await fetch(base + path);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect((await res.json()).error.code).toBe('database_unavailable');
    });
  }

  it('anything else is 500 internal, and reported', async () => {
    const before = errors.length;
    const res = await fetch(`${base}/bug`);
    expect(res.status).toBe(500);
    expect((await res.json()).error.code).toBe('internal');
    expect(errors.length).toBe(before + 1);
  });
});
