import { describe, expect, it } from 'vitest';
import { afterLookup, callNames, plan, seedArticles, seedContext, upcoming, writeNames } from './testing.js';

// Failures of a blind set of no-write traps and questions to ask first (evals/open/outsider-27-SCENARIOS.md), as
// classes: a limit the help centre states about the visit asked for ("on the brick wall above the fireplace"), words
// someone else sent quoted ("my roommate texted me '…'"), a problem cleared up in the same message ("but it was me"),
// another business's failings, a complaint with nothing said about it, texts asked for on a landline.

const ctx = seedContext();

describe('no write', () => {
  it('words someone else sent, quoted, are not a request of the customer', () => {
    const windows = upcoming('BKG-1018', 'svc_window_clean', '2026-12-19T11:00:00-05:00');
    const text =
      "my roommate literally just texted me 'cancel the windows thing we cant afford it rn' 🙃 we're still fighting " +
      "about it, i'll get back to u";
    expect(writeNames(afterLookup(ctx, text, [windows]))).toEqual([]);
  });

  it('a problem cleared up in the same message', () => {
    const text =
      'the tap your technician fixed on wednesday start dripping again last night and i was panic, but it was me, i ' +
      'did not close it fully 🙈 everything fine now';
    expect(writeNames(plan(ctx, text))).toEqual([]);
  });

  it("another business's failings are no ticket; the question beside them is looked up", () => {
    const t = plan(
      ctx,
      'My internet company did not come three times this month, very annoying. Good that your company always comes. ' +
        'Cleaning on 14th is still 8am, right?',
    );
    expect(callNames(t)).toEqual(['lookup_customer']);
  });

  it('a problem of ours is still a ticket', () => {
    expect(writeNames(plan(ctx, 'the tap you fixed is dripping again, please send someone'))).toEqual([
      'create_ticket',
    ]);
    expect(writeNames(plan(ctx, 'I want to make a complaint about the cleaner, she left the back door open'))).toEqual([
      'create_ticket',
    ]);
  });
});

describe('asked first', () => {
  it.each([
    ['I want to make a complaint.', /What happened\?/],
    ["STOP ringing me at all hours. Text me instead. Mind you, it's a landline so it can't get texts.", /landline/],
    ['my details on here are soooo out of date 🙈 can u fix them', /Which details have changed/],
    ['can you update my details please', /Which details have changed/],
  ])('%s', (text, asked) => {
    const t = plan(ctx, text);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(asked);
  });

  it('a visit the help centre says we do not do as asked is asked about, the limit quoted once', () => {
    const withKb = seedContext({ retrieved: seedArticles('kb-pricing-04') });
    const t = plan(
      withKb,
      'Can you mount our 65" TV on the brick wall above the fireplace? Wednesday the 16th at 10am would be ideal.',
    );
    expect(writeNames(t)).toEqual([]);
    expect(t.content.match(/We do not mount on brick/g)).toHaveLength(1);
    expect(t.content).toMatch(/another spot/);
    expect(writeNames(plan(withKb, 'mount my tv in the living room wed 16th 10am'))).toEqual(['book_slot']);
  });
});

describe('the cost of a change, asked in everyday words', () => {
  it.each([
    [
      "What would it set me back to push tomorrow's drywall job back a day?",
      upcoming('BKG-1005', 'svc_drywall_patch', '2026-12-08T08:00:00-05:00'),
      /\$25/,
    ],
    [
      "if i bail on tomorrow's clean whats the damage",
      upcoming('BKG-1017', 'svc_standard_clean', '2026-12-08T08:00:00-05:00'),
      /\$74\.50/,
    ],
  ])('%s', (text, booking, fee) => {
    const t = afterLookup(ctx, text, [booking]);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(fee);
  });
});
