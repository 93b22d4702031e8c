import { describe, expect, it } from 'vitest';
import { answerKinds } from '../../schema/knowledge/answer-kinds.js';
import { bestSentences, snippetWords } from './search-knowledge-base.js';

/*
 * The snippet carries the sentence with the fact asked for: the kind of fact (a length of time, an
 * amount), a word counted once however often a sentence repeats it, and sentences picked while they fit.
 * Synthetic articles, shaped like help-centre ones.
 */
const snippet = (body: string, q: string, max = 3, maxChars = 520) =>
  bestSentences(body, snippetWords(q), max, maxChars, answerKinds(q));

describe('bestSentences: the kind of fact asked for', () => {
  it('answers "how soon" with the sentence that gives a length of time', () => {
    const body =
      'Contact us with the date of the visit and a photo of the problem.\n\n' +
      'Our team reviews each claim. If it is covered, we book a return visit within 5 business days.\n\n' +
      'If the problem is not covered, your technician explains why and quotes before any paid work.';
    expect(snippet(body, 'once you accept my claim how soon will someone come back?', 1)).toContain(
      'within 5 business days',
    );
  });

  it('answers "that long" with the limit, not with a sentence sharing more of the question’s words', () => {
    const body =
      'Plans have no contract, so you can end yours whenever you like.\n\n' +
      'Pausing is useful when you are away on holiday. You can pause for up to 8 weeks.';
    expect(snippet(body, 'we are away two months, can the cleanings be put on hold that long?', 1)).toContain(
      'up to 8 weeks',
    );
  });
});

describe('bestSentences: each of the question’s words once', () => {
  it('does not let a sentence repeating a word ("card … cards") outweigh the one with the condition', () => {
    const body =
      'Card holders with cards get a discount.\n\n' +
      'The discount does not apply to fees such as the travel surcharge or other charges.';
    expect(snippet(body, 'does my card discount come off the travel charge?', 1)).toContain('travel surcharge');
  });
});

describe('bestSentences: picked while they fit', () => {
  it('skips a long sentence that does not fit and takes the next best that does', () => {
    const long = `The warranty covers installations, ${'brackets, adapters and boxes, '.repeat(8)}and more.`;
    const body =
      `TV mounting and thermostat installation come with a warranty. ${long}\n\n` +
      'The warranty covers our installation work, not the thermostat itself.';
    const out = snippet(body, 'the thermostat you installed is dead, is that on you?', 2, 200);
    expect(out).toContain('not the thermostat itself');
    expect(out.length).toBeLessThanOrEqual(200);
  });
});
