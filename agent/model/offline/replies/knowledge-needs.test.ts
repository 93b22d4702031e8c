import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PlanContext } from '../../../plan-context.js';
import { makeContext } from '../testing.js';
import { answerFromKb } from './knowledge.js';

/*
 * Help-centre answers matched to what the question needs: a notice, a deadline, money that is used, the
 * customer's own word over a long meaning of another. Each question with the five articles the search returned
 * for it over the seed's help centre (knowledge-needs.fixture.json), snippets as they were.
 */
interface NeedCase {
  need: string;
  question: string;
  fact: string;
  retrieved: PlanContext['retrieved'];
}
const CASES: NeedCase[] = JSON.parse(readFileSync(new URL('./knowledge-needs.fixture.json', import.meta.url), 'utf8'));

describe('answerFromKb: the article with what the question needs', () => {
  for (const c of CASES)
    it(c.need, () => {
      expect(answerFromKb(c.question, makeContext({ retrieved: c.retrieved }))?.text).toContain(c.fact);
    });
});
