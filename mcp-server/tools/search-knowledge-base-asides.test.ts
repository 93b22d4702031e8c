import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, type TestDatabase } from '../../core/testing/test-database.js';
import { searchKnowledgeBase } from './search-knowledge-base.js';

/*
 * Chat around a question is not what it asks: "quick one", "give or take", "is there a way to" weighed as words
 * pulled sentences about how long things take into the snippet and pushed the one with the fact out of it.
 * The seed's help centre.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createSeededDatabase({});
});
afterAll(async () => {
  await db?.drop();
});

const snippetOf = async (q: string, id: string) =>
  (await searchKnowledgeBase(db.pool, q, 5)).find((h) => h.id === id)?.snippet ?? '';

describe('searchKnowledgeBase: asides around the question', () => {
  it('"26 windows give or take … would the inside window cleaning do all of them": the window sentence', async () => {
    const q =
      'quick one, the house has 26 windows give or take. would the inside window cleaning do all of them or only some';
    expect(await snippetOf(q, 'kb-pricing-02')).toContain('up to 20 windows');
  });

  it('"is it still any good" of an old gift card asks whether it expires', async () => {
    const q = 'found a brightwell gift card from a few years back in the junk drawer, is it still any good';
    expect(await snippetOf(q, 'kb-payment-and-refunds-05')).toContain('never expire');
  });
});
