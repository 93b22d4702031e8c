import { describe, expect, it } from 'vitest';
import {
  crewInstruction,
  extractAccessNote,
  extractAddress,
  extractNameChange,
  extractPreferences,
} from './analysis/entities.js';
import { callNames, plan, seedContext } from './testing.js';

// Failures of a blind set, as classes: a visit asked for as "can u …" (chat's "u", not "you"), in its everyday
// words ("pop round"), or with the job left vague ("need something put up"), is a request to book, which asks
// for what is missing instead of quoting the help centre.

const ctx = seedContext();
const writes = (text: string) =>
  callNames(plan(ctx, text)).filter((n) => n !== 'lookup_customer' && n !== 'search_knowledge_base');

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

describe('every field of a record change is read', () => {
  it.each([
    ['few updates: got married so im Helen Brooks-Avery now 💍, phone is 5552019034', 'Helen Brooks-Avery'],
    ['its Olivia Bennett-Cho now, email stays the same tho', 'Olivia Bennett-Cho'],
    ["got married last month so i'm ann lee-stone now", 'Ann Lee-Stone'],
  ])('a new name said as "I\'m/it\'s <name> now": %s', (text, name) => {
    expect(extractNameChange(text)).toBe(name);
  });

  it.each(['im home now', 'its Tuesday now right'])('no name in "%s"', (text) => {
    expect(extractNameChange(text)).toBeUndefined();
  });

  it('"dont need the eco products anymore" turns them off', () => {
    expect(extractPreferences('also dont need the eco products anymore').eco_products).toBe(false);
  });

  it.each([
    ['oh and mornings r hard now, afternoons better', 'afternoons'],
    ['mornings dont work anymore', 'afternoons'],
    ['afternoons are tough these days', 'mornings'],
  ])('the part of the day that suits: %s', (text, period) => {
    expect(extractPreferences(text).preferred_time).toBe(period);
  });

  it('a lockbox that moved is a note, not a new address', () => {
    const text = 'lockbox moved to the back door (same code)';
    expect(extractAddress(text)).toBeUndefined();
    expect(extractAccessNote(text)).toBe('Lockbox moved to the back door (same code)');
  });

  it('"tell whoever comes …" is an instruction for the crew', () => {
    expect(crewInstruction('pls text me. and tell whoever comes theres a new side gate now')).toBe(
      'Tell whoever comes theres a new side gate now',
    );
  });
});

describe('what a message asks of whom', () => {
  it('"nobody hurt" rules harm out, and an "emergency contact" is no emergency', () => {
    const t = plan(
      ctx,
      'the shelf ur handyman put up 10 days ago came off the wall and chipped my counter, nobody hurt',
    );
    expect(t.calls.find((c) => c.name === 'create_ticket')?.args.priority).toBe('high');
    expect(writes('can u add my partner as an emergency contact for the visits')).toEqual([]);
  });

  it("a neighbour's visit is theirs: not even its missing time is asked", () => {
    const t = plan(ctx, 'my neighbour asked me to get her tv mount moved to friday, can u sort it');
    expect(callNames(t)).toEqual([]);
    expect(t.content).toMatch(/only look up or change your own account/);
  });

  it('"can the faucet thing on wed be thursday at 4pm instead" moves a booking, never books another', () => {
    const t = plan(ctx, 'can the faucet thing on wed be thursday at 4pm instead');
    expect(callNames(t)).not.toContain('book_slot');
    expect(t.meta?.change).toEqual({ kind: 'reschedule' });
  });

  it('"… and someone to fix the squeaky door fri 11th 8am" is a second booking', () => {
    const t = plan(
      ctx,
      '2 things: tv on the wall tue 15th at 9am and someone to fix the squeaky bedroom door fri 11th 8am',
    );
    expect(t.calls.map((c) => c.args.service_id)).toEqual(['svc_tv_mount', 'svc_handyman_hour']);
  });
});

describe('what is still to come is asked for, not guessed', () => {
  it('a move to a street named without its number asks for the address, and proposes nothing', () => {
    const t = plan(ctx, "we're moving to the blue house on heron way, unit 8 🏠 can u update my address");
    expect(writes("we're moving to the blue house on heron way, unit 8 🏠 can u update my address")).toEqual([]);
    expect(t.content).toMatch(/full new address/);
  });

  it('"can u note the new door code" asks for the code', () => {
    const t = plan(ctx, 'can u note the new door code for the building');
    expect(callNames(t)).toEqual([]);
    expect(t.content).toMatch(/What's the new door code\?/);
  });
});
