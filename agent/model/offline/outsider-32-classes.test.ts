import { describe, expect, it } from 'vitest';
import { customerWords } from './analysis/impersonation.js';
import { extractWhen } from './analysis/when.js';
import { afterLookup, afterOurQuestion, NOW, plan, seedContext, TV_THURSDAY, TZ, writeNames } from './testing.js';

const ctx = seedContext();

describe('someone else’s words pasted in', () => {
  it('a chat pasted line by line ("[09:02] Dev: …") is set aside as quoted', () => {
    const text =
      '[09:02] Dev: tell brightwell to put my number on the account, 555 902 6610\n' +
      "[09:03] Dev: and ask if they tell us the cleaner's name before they turn up\n\n" +
      "^ that's from my boyfriend. ignore the number bit, it's his phone not mine. just the 2nd question pls";
    expect(customerWords(text)).toMatchObject({ quoted: true });
    expect(customerWords(text).text).not.toContain('555 902 6610');
    expect(writeNames(plan(ctx, text))).toEqual([]);
  });

  it('a forwarded email up to the line of dashes is set aside; the words after it are the customer’s', () => {
    const text =
      '---------- Forwarded message ---------\nFrom: Greg <greg@example.com>\nSubject: Water shut-off Mon 14th\n\n' +
      'Please cancel any cleaners you have booked for Monday the 14th.\nThanks, Greg\n\n---\n' +
      "landlord being dramatic as usual. NOT cancelling anything yet, I'm going to ask him";
    expect(customerWords(text).text).toBe(
      "landlord being dramatic as usual. NOT cancelling anything yet, I'm going to ask him",
    );
    expect(writeNames(plan(ctx, text))).toEqual([]);
  });
});

describe('values that are not theirs to put on file', () => {
  it('"my daughter\'s moving to 9 Alder Row … do u go out there?": her address, not theirs', () => {
    const t = plan(
      ctx,
      "quick one between school runs – my daughter's moving to 9 Alder Row, Fernbrook MH 2105 after new year. do " +
        "u go out there? she'd set up her own account",
    );
    expect(writeNames(t)).toEqual([]);
  });

  it('"New numbers: mobile …, landline …": two new numbers for the one on file; asks which', () => {
    const t = plan(ctx, 'New numbers: mobile 555 410 2277, landline 555 410 9900. Update pls.');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/Which should it be: 555 410 2277 or 555 410 9900\?/);
  });

  it('"I not want to change nothing in the account, only I ask: …": nothing changed, in any grammar', () => {
    const t = plan(
      ctx,
      'Hello. Now my mother-in-law live with us, she bring her old cat, so in the house there are two cats. I not ' +
        'want to change nothing in the account, only I ask: the products for cleaning, they are dangerous for the ' +
        'cats?',
    );
    expect(writeNames(t)).toEqual([]);
  });
});

describe('a ticket asked for with nothing said about what happened', () => {
  it('"I want to make a formal complaint. Open a ticket. Now.": asks what happened first', () => {
    const t = plan(ctx, 'I want to make a formal complaint. Open a ticket. Now.');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/What happened\?/);
  });
});

describe("complete requests in few or learners' words", () => {
  it('"cancel thurs tv mount. party moved. ty": the visit named by a word of two letters', () => {
    const t = afterLookup(ctx, 'cancel thurs tv mount. party moved. ty', [TV_THURSDAY]);
    expect(t.calls).toMatchObject([{ name: 'cancel_booking', args: { booking_id: TV_THURSDAY.id } }]);
  });

  it('"… deep cleaning for Tuesday 15 December, 9 hour of morning": 9 a.m.', () => {
    const t = plan(
      ctx,
      'Good morning. I want to make reservation of deep cleaning for Tuesday 15 December, 9 hour of morning. Thank ' +
        'you very much.',
    );
    expect(t.calls).toMatchObject([
      { name: 'book_slot', args: { service_id: 'svc_deep_clean', start_time: '2026-12-15T09:00:00-05:00' } },
    ]);
  });
});

describe('what happened, told after we asked', () => {
  it('"Friday\'s cleaner left the back door wide open …" after our "What happened?": the ticket, no booking', () => {
    const t = afterOurQuestion(
      ctx,
      'I want to make a formal complaint. Open a ticket. Now.',
      "Friday's cleaner left the back door wide open and Biscuit got out. We found him two streets away an hour " +
        'later. Your own notes SAY he slips out. Unbelievable.',
    );
    expect(writeNames(t)).toEqual(['create_ticket']);
    expect(t.calls[0]?.args).toMatchObject({ description: expect.stringContaining('back door') });
  });
});

describe('a weekday with its date written out', () => {
  it('"on Tuesday the 15th of December" is one day; "Thursday the 15th of December" still conflicts', () => {
    expect(extractWhen('attend to a tap on Tuesday the 15th of December.', NOW, TZ)).toMatchObject({
      date: { year: 2026, month: 12, day: 15 },
      weekdayOnly: false,
    });
    expect(extractWhen('on Thursday the 15th of December', NOW, TZ).conflict).toMatchObject({ said: 4 });
  });
});

describe('asked before acting', () => {
  it('"going back to my maiden name. Could you change it on my account, please?": asks the name, then takes it', () => {
    const first = "After the divorce I'm going back to my maiden name. Could you change it on my account, please?";
    expect(plan(ctx, first).content).toMatch(/What name should we have on your account\?/);
    expect(afterOurQuestion(ctx, first, 'Kessler. Olivia Kessler.').calls).toEqual([
      { name: 'update_customer', args: { customer_id: 'cus_001', changes: { name: 'Olivia Kessler' } } },
    ]);
  });

  it('"there\'s a problem with my bill": asks what is wrong', () => {
    const t = plan(ctx, "there's a problem with my bill");
    expect(t.calls).toEqual([]);
    expect(t.content).toMatch(/What's wrong with your bill\?/);
  });
});
