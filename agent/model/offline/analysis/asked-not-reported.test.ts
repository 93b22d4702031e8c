import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';
import { reportsProblem, wantsTicket } from './entities.js';
import { article, callNames, MARIA, plan, seedContext } from '../testing.js';

/*
 * Questions that mention a problem, a claim or a booking without reporting or asking for one: the
 * customer's own slip ("forgot to tip"), a past problem as the origin of what they have ("a credit from
 * when the guy was late"), a claim in a clause of what happens after it, and asking when booking opens.
 */

describe('what the customer forgot is not work we left undone', () => {
  it('reads "forgot" of "i", "we" or no subject as their own', () => {
    expect(reportsProblem('forgot to tip the cleaner yesterday, can i still do it?')).toBe(false);
    expect(reportsProblem("we forgot to leave the gate code, what's the best way to send it?")).toBe(false);
    expect(reportsProblem('Sorry. I just forgot the time, when is it again?')).toBe(false);
  });

  it('still hears what our people forgot, and a complaint beside their own slip', () => {
    expect(reportsProblem('the cleaner forgot to do the oven')).toBe(true);
    expect(reportsProblem('they forgot the upstairs bathroom')).toBe(true);
    expect(reportsProblem('i forgot to say, they skipped the kitchen')).toBe(true);
  });
});

describe('a past problem named as the origin of something is background', () => {
  it('reads "a credit from when the tech was late" as a question about the credit', () => {
    expect(reportsProblem('i have a credit from when the tech was late, when does it get used?')).toBe(false);
    expect(reportsProblem('is the refund back when the guy was late still coming?')).toBe(false);
  });

  it('still hears lateness reported now', () => {
    expect(reportsProblem('the tech was late again today')).toBe(true);
    expect(reportsProblem('i have a question, the guy was late, do i get anything?')).toBe(true);
  });
});

describe('a claim in a clause of what follows it is not a request for one', () => {
  it('reads "once you accept my warranty claim…" and "if i file a complaint…" as questions', () => {
    expect(wantsTicket('once you accept my warranty claim how soon will someone come back out?')).toBe(false);
    expect(wantsTicket('if i file a complaint, how long until i hear back?')).toBe(false);
    expect(wantsTicket('after they review the warranty claim do i get an email?')).toBe(false);
  });

  it('still reads a claim or ticket asked for, politely or in a clause of its own', () => {
    expect(wantsTicket('if you could open a ticket for me that would be great')).toBe(true);
    expect(wantsTicket('i want to make a warranty claim, the shelf fell')).toBe(true);
    expect(wantsTicket('when you get a chance, please escalate this')).toBe(true);
  });

  it('answers the question from the help centre instead of opening a ticket', () => {
    const ctx = seedContext({
      customer: MARIA,
      retrieved: [
        article(
          'How to make a warranty claim',
          'Our team reviews each claim within 1 business day. ' +
            'If it is covered, we book a return visit within 5 business days.',
        ),
      ],
    });
    const turn = plan(ctx, 'once you accept my warranty claim how soon will someone come back out?');
    expect(callNames(turn)).toEqual([]);
    expect(turn.content).toContain('within 5 business days');
  });
});

describe('asking when a booking can be made is a question, not a booking', () => {
  it('reads "remind me when i can book it" like "when can i book it?"', () => {
    const ctx = seedContext({ customer: MARIA });
    const text =
      "my lease ends in five weeks and i'll need the move out clean then, can you remind me when i can book it?";
    const a = analyze([], ctx, text);
    expect(a.bookingWanted).toBe(false);
    expect(a.cues.book.strong).toBe(false);
  });

  it('still books a visit asked for with its day and time', () => {
    const ctx = seedContext({ customer: MARIA });
    expect(analyze([], ctx, 'please book a deep clean friday at 10').bookingWanted).toBe(true);
  });
});
