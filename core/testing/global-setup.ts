import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config.js';
import { startEmbeddedPostgres } from '../embedded-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

/**
 * One Postgres server for the whole run: DATABASE_URL when given (CI against a real server),
 * otherwise a throw-away embedded cluster. Every test file then creates its own database in it.
 */
export default async function setup(project: TestProject) {
  const config = loadConfig();
  if (config.DATABASE_URL) {
    project.provide('adminDatabaseUrl', config.DATABASE_URL);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'support-agent-test-pg-'));
  const pg = await startEmbeddedPostgres({ dataDir: dir, persistent: false });
  project.provide('adminDatabaseUrl', pg.url);
  return async () => {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
