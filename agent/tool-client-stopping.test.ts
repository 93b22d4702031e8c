import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../core/config.js';
import { markStopping } from '../core/shutdown.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { eventually, toolServerChildren } from './testing/tool-server-children.js';
import { stdioTransport, ToolClient } from './tool-client.js';

// Its own file: markStopping() is for the life of the process.
let db: TestDatabase;
beforeAll(async () => {
  db = await createSeededDatabase();
});
afterAll(async () => {
  await db?.drop();
});

describe('a stdio tool server that ends as this process begins to stop (Ctrl-C reaches both)', () => {
  it('is neither reported as lost nor restarted, even when the child ends first', async () => {
    const lines: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).trim().split('\n')) lines.push(JSON.parse(l));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    let spawned = 0;
    const env = childEnv({
      DATABASE_URL: db.url,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      FIXED_NOW: TEST_NOW,
      BUSINESS_TIMEZONE: TEST_TZ,
    });
    const before = toolServerChildren();
    const tools = await ToolClient.connect(
      () => {
        spawned++;
        return stdioTransport(env);
      },
      { logger },
    );
    try {
      const child = await eventually('the child', () => toolServerChildren().find((p) => !before.includes(p)));
      // The child's signal is handled first; this process sees its own a moment later.
      process.kill(child, 'SIGINT');
      await eventually('the session to end', () => (tools.health().status !== 'ok' ? true : undefined));
      markStopping();
      await new Promise((r) => setTimeout(r, 1000));
      expect(spawned).toBe(1);
      expect(lines.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([]);
      expect(lines.map((l) => l.msg)).toContain('tool server session ended while stopping');
    } finally {
      await tools.close();
    }
  }, 60_000);
});
