import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedHandle } from './embedded-postgres.js';

const dir = mkdtempSync(path.join(tmpdir(), 'support-agent-embedded-'));
const handles: EmbeddedHandle[] = [];
afterAll(async () => {
  for (const h of handles) await h.stop().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded Postgres', () => {
  it('one cluster per data folder: concurrent starts get one owner, the other attaches', async () => {
    const [a, b] = await Promise.all([
      startEmbeddedPostgres({ dataDir: dir }),
      startEmbeddedPostgres({ dataDir: dir }),
    ]);
    handles.push(a, b);
    expect([a.owned, b.owned].sort()).toEqual([false, true]);
    expect(a.url).toBe(b.url);
    const client = new pg.Client({ connectionString: b.url });
    await client.connect();
    const r = await client.query('SHOW server_version');
    await client.end();
    expect(Number.parseInt(r.rows[0].server_version, 10)).toBeGreaterThanOrEqual(16);
  }, 60_000);

  it('stops cleanly: only the owner stops it, and the data folder stays for the next start', async () => {
    const owner = handles.find((h) => h.owned)!;
    const guest = handles.find((h) => !h.owned)!;
    await guest.stop();
    expect(existsSync(path.join(dir, 'postgres', 'postmaster.pid'))).toBe(true);
    await owner.stop();
    expect(existsSync(path.join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(path.join(dir, 'postgres', 'PG_VERSION'))).toBe(true);
    const again = await startEmbeddedPostgres({ dataDir: dir });
    handles.push(again);
    expect(again.owned).toBe(true);
  }, 60_000);
});
