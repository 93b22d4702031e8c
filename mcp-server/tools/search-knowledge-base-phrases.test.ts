import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededDatabase, type TestDatabase } from '../../core/testing/test-database.js';
import { queryWords, searchKnowledgeBase } from './search-knowledge-base.js';

/*
 * How the thesaurus's phrases weigh in the search: one phrase is one concept (the words of a long meaning
 * share its weight), and an idiom's one-word meaning picks the passage like the customer's own word.
 * Synthetic articles, shaped like help-centre ones, in an empty help centre.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createSeededDatabase({ seed: false });
  const articles: [string, string, string][] = [
    ['kb-t-tips', 'Tipping your technician', 'You can add a tip for up to 7 days after the visit.'],
    [
      'kb-t-guarantee',
      'Cleaning satisfaction guarantee',
      'If something was missed, tell us and we re-clean it under our satisfaction guarantee.',
    ],
    ['kb-t-parking', 'Parking', 'Technicians need to park within one block of your home.'],
    ['kb-t-pets', 'Pets', 'Please keep pets in a separate room during the visit.'],
    [
      'kb-t-late',
      'If your technician is running late',
      'Traffic and jobs that run long can hold a technician up. If they will not make the arrival window, ' +
        'we message you.\n\n' +
        'If your technician arrives more than 30 minutes after your start time, we add a $25 credit to your ' +
        'account automatically. It is used on your next booking.\n\n' +
        'If the delay no longer works for you, you can reschedule free of charge. The usual late fee does not ' +
        'apply when the delay is ours.\n\n' +
        'Arriving inside the arrival window counts as on time, so arriving at 10:25 for 10:00 is not late. ' +
        'Your visit still gets its full length, even if it started a few minutes after the hour.',
    ],
  ];
  for (const [id, title, body] of articles)
    await db.pool.query(`INSERT INTO kb_articles (id, topic, title, body) VALUES ($1, 'testing', $2, $3)`, [
      id,
      title,
      body,
    ]);
});
afterAll(async () => {
  await db?.drop();
});

describe('searchKnowledgeBase: the thesaurus’s phrases', () => {
  it('lets the words of a long meaning share its weight ("forgot" → missed, satisfaction, guarantee)', async () => {
    const hits = await searchKnowledgeBase(db.pool, 'forgot to tip my cleaner, is it too late?', 5);
    const score = (id: string) => hits.find((h) => h.id === id)?.score ?? 0;
    // Four words of one meaning at an expansion's full weight each scored the guarantee half as much again as
    // the article with the customer's own word; as one concept they are about level.
    expect(score('kb-t-tips')).toBeGreaterThan(0.85 * score('kb-t-guarantee'));
  });

  it('picks the passage with an idiom’s meaning ("do I get anything for that" → credit)', async () => {
    const q = 'what if the guy shows up an hour late, do i get anything for that';
    const [late] = await searchKnowledgeBase(db.pool, q, 5);
    expect(late?.snippet).toContain('$25 credit');
  });
});

describe('searchKnowledgeBase: the words of a question', () => {
  it('drops a contraction’s tail and lone letters, which would become rare, heavy lexemes', () => {
    expect(queryWords("we're having a baby, can i pause w/o losing my day? that'll be fine, don't worry")).toEqual([
      'we',
      'having',
      'baby',
      'can',
      'pause',
      'losing',
      'my',
      'day',
      'that',
      'be',
      'fine',
      'worry',
    ]);
  });

  it('finds nothing for a contraction’s tail alone', async () => {
    const hits = await searchKnowledgeBase(db.pool, "we're, they've, you'd", 5);
    expect(hits).toEqual([]);
  });
});
