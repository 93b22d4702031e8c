import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, type TestDatabase } from '../../core/testing/test-database.js';
import { searchKnowledgeBase } from './search-knowledge-base.js';

/*
 * The search gives the same articles in the same order whichever plan Postgres picks. A fresh database
 * is planned without statistics until autovacuum analyzes it, so the same question could rank two
 * equally good articles either way from one eval run to the next. Here the plans are forced instead.
 */
let db: TestDatabase;
let client: pg.PoolClient;
beforeAll(async () => {
  db = await createSeededDatabase();
  client = await db.pool.connect();
});
afterAll(async () => {
  client?.release();
  await db?.drop();
});

/** Questions whose top articles include equal scores (the seeded help centre). */
const QUESTIONS = [
  'this thursday the 11th works for a faucet repair, 1pm?',
  'can i get a faucet repair on friday at 2pm?',
  'do you do windows and a standard clean the same day?',
  'how much is a handyman hour and can it be tomorrow?',
];

async function ranked(settings: string[]): Promise<string[]> {
  for (const s of settings) await client.query(`SET ${s} = off`);
  try {
    const out: string[] = [];
    for (const q of QUESTIONS)
      out.push((await searchKnowledgeBase(client, q, 8)).map((h) => `${h.id} ${h.score}`).join(', '));
    return out;
  } finally {
    for (const s of settings) await client.query(`RESET ${s}`);
  }
}

describe('help-centre search ties', () => {
  it('ranks equal scores by id, whatever the plan', async () => {
    const base = await ranked([]);
    for (const settings of [['enable_nestloop'], ['enable_sort'], ['enable_hashagg', 'enable_hashjoin']])
      expect(await ranked(settings)).toEqual(base);
  });
});
