import { describe, expect, it } from 'vitest';
import { callNames, plan, seedContext } from './testing.js';

// Failures of a blind set, as classes: a visit asked for as "can u …" (chat's "u", not "you"), in its everyday
// words ("pop round"), or with the job left vague ("need something put up"), is a request to book, which asks
// for what is missing instead of quoting the help centre.

const ctx = seedContext();

describe('a visit asked for in chat words is a booking request', () => {
  it.each([
    ['can u put my tv on the wall this saturday? i have the bracket already', /what time/i],
    ['can somebody pop round tues morning, few bits to sort', /which service/i],
    ['need something put up on the living room wall sat 12th at 10', /which service/i],
    ['can u come thurs 17th at 9? the place needs to be spotless', /which service/i],
  ])('"%s" asks for what is missing, no write', (text, question) => {
    const t = plan(ctx, text);
    expect(callNames(t)).toEqual([]);
    expect(t.content).toMatch(question);
    expect(t.content).not.toMatch(/help article/i);
  });
});
