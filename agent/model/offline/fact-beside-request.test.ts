import { describe, expect, it } from 'vitest';
import { article as hit, plan, seedContext } from './testing.js';

/*
 * The fact asked for reaches the reply when the message also asks for something (a ticket) and when the
 * question is typed without its question mark; the catalogue's line leads an answer only when a price is asked.
 */
const late = hit(
  'If your technician is running late',
  'If your technician arrives more than 30 minutes after your booked start time, we add a $25 credit to your ' +
    'account automatically. It is used on your next booking.',
  7.5,
);
const sameDay = hit(
  'Same-day service',
  'We offer same-day visits Monday to Friday when a technician is free. Please call us on 555-0100 before noon ' +
    'and we will check who is available. A $40 same-day fee is added to the service price.',
  4.7,
);

describe('a question beside a request gets its answer', () => {
  for (const text of [
    'the tech turned up an hour late yesterday with no word at all. do i get anything for that',
    'your guy came 50 minutes late last week and never called. will i get anything back for that',
  ])
    it(`reads a question without its mark: ${text}`, () => {
      const t = plan(seedContext({ retrieved: [late, sameDay] }), text);
      expect(t.calls.map((c) => c.name)).toEqual(['create_ticket']);
      expect(t.content).toContain('$25 credit');
    });

  it('splits a lower-case sentence after a question mark, as chat is typed', () => {
    const t = plan(
      seedContext({ retrieved: [sameDay, { ...late, score: 2 }] }),
      'is there any way to get someone out today? like emergency-ish, a light fell half out of the ceiling',
    );
    expect(t.content).toContain('555-0100');
    expect(t.content).toContain('$40');
  });

  it('does not read a request that opens like a question ("do the windows…") as one', () => {
    const t = plan(
      seedContext({ retrieved: [sameDay, late] }),
      'the tech was over an hour late last week and never called. do the same-day thing next time please',
    );
    expect(t.content).not.toContain('Same-day service');
  });
});

describe("the catalogue's price leads an answer only when a price is asked", () => {
  const pause = hit(
    'Pausing or ending a recurring cleaning plan',
    'Pausing is useful for holidays, renovations or a new baby. You can pause a plan for up to 8 weeks and your ' +
      'usual day, start time and technician are held for you.',
    8.8,
  );
  for (const text of [
    'baby due in march! how long can the weekly clean be paused before it gets cancelled',
    'how long could my regular standard cleaning stay on hold for?',
  ])
    it(`no visit price beside a pause: ${text}`, () => {
      const t = plan(seedContext({ retrieved: [pause] }), text);
      expect(t.content).toContain('8 weeks');
      expect(t.content).not.toContain('$149');
    });

  it('still gives the price when asked beside the article', () => {
    const t = plan(seedContext({ retrieved: [pause] }), 'how much is a standard cleaning, and can it be paused?');
    expect(t.content).toContain('$149');
  });
});
