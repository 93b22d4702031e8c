import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, type TestDatabase } from '../core/testing/test-database.js';
import { searchKnowledgeBase } from './tools/search-knowledge-base.js';

/*
 * The search reads the help centre's vocabulary from kb_vocabulary (kept by a trigger), not from
 * ts_stat per search. These tests hold the table to ts_stat through every kind of article change,
 * and show a search sees an article's new words at once.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createSeededDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** Rows of the table and of ts_stat that differ (empty when they agree). */
async function drift(): Promise<unknown[]> {
  const r = await db.pool.query(
    `(SELECT word, ndoc FROM kb_vocabulary EXCEPT SELECT word, ndoc FROM ts_stat('SELECT search FROM kb_articles'))
     UNION ALL
     (SELECT word, ndoc FROM ts_stat('SELECT search FROM kb_articles') EXCEPT SELECT word, ndoc FROM kb_vocabulary)`,
  );
  return r.rows;
}

describe('help-centre vocabulary table', () => {
  it('holds exactly what ts_stat computes over the seeded articles', async () => {
    const n = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM kb_vocabulary`);
    expect(n.rows[0]!.n).toBeGreaterThan(100);
    expect(await drift()).toEqual([]);
  });

  it('follows inserts, updates and deletes of articles, and a search finds the new words at once', async () => {
    const word = 'zeppelinography';
    expect(await searchKnowledgeBase(db.pool, word, 5)).not.toContainEqual(expect.objectContaining({ id: 'kb-test' }));
    await db.pool.query(
      `INSERT INTO kb_articles (id, topic, title, body) VALUES ('kb-test', 'testing', 'Airship care', $1)`,
      [`We offer ${word} for every customer.`],
    );
    expect(await drift()).toEqual([]);
    expect((await searchKnowledgeBase(db.pool, word, 5))[0]?.id).toBe('kb-test');
    // A typo is corrected against the new vocabulary too.
    expect((await searchKnowledgeBase(db.pool, 'zeppelinograhpy', 5))[0]?.id).toBe('kb-test');

    await db.pool.query(`UPDATE kb_articles SET body = 'Nothing special here.' WHERE id = 'kb-test'`);
    expect(await drift()).toEqual([]);
    const v = await db.pool.query(`SELECT 1 FROM kb_vocabulary WHERE word LIKE 'zeppelin%'`);
    expect(v.rowCount).toBe(0);

    await db.pool.query(`DELETE FROM kb_articles WHERE id = 'kb-test'`);
    expect(await drift()).toEqual([]);
  });

  it('rolls back with the transaction that changed the articles', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`DELETE FROM kb_articles`);
      const inside = await client.query(`SELECT count(*)::int AS n FROM kb_vocabulary`);
      expect(inside.rows[0].n).toBe(0);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await drift()).toEqual([]);
  });
});
