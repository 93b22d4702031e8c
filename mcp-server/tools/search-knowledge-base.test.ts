import { describe, expect, it } from 'vitest';
import { answerKinds } from '../../schema/knowledge/answer-kinds.js';
import { bestSentences, snippetWords } from './search-knowledge-base.js';

/*
 * The snippet is what the planner (and Gemini) may quote: the sentence that holds the fact must be
 * in it, whole. Synthetic articles, shaped like help-centre ones.
 */
describe('bestSentences', () => {
  it('never cuts a time ("9:00 a.m.") or a web address into two sentences', () => {
    const body =
      'We work Saturdays from 9:00 a.m. to 2:00 p.m. and book online at example.com any day.\n\n' +
      'Longer services need an early start on a Saturday, at 9:00 or 10:00 a.m.';
    const snippet = bestSentences(body, snippetWords('what time do you open on saturdays'));
    expect(snippet).toContain('from 9:00 a.m. to 2:00 p.m. and book online at example.com any day.');
    expect(snippet).not.toMatch(/ a\.(?!m\.)/);
  });

  it('keeps the sentence that says what to do after the one that matches the question best', () => {
    const body =
      'We want you to know who is at your door. Your reminder includes the visit details and the name of ' +
      'your technician, and on the day they send a message with their photo.\n\n' +
      'Technicians wear a uniform and show a badge. If the technician changes, we send a message.\n\n' +
      'If someone says they are from us but you have not had a message, do not let them in. ' +
      'Call us at 555-0100 and we will confirm whether the visit is genuine.';
    const snippet = bestSentences(
      body,
      snippetWords('someone at my door says he is from you, no message about a visit'),
    );
    expect(snippet).toContain('do not let them in.');
    expect(snippet).toContain('Call us at 555-0100');
  });

  it('prefers statements to the article’s own rhetorical questions', () => {
    const body =
      'Need help today? We offer same-day visits on weekdays when a technician is free. Same-day visits cannot ' +
      'be booked online, so please call us on 555-0100 before noon.\n\n' +
      'A same-day fee is added to the price. Same-day visits cover repairs such as a leaking faucet.';
    const snippet = bestSentences(body, snippetWords('can someone come today? my sink is clogged'));
    expect(snippet).toContain('call us on 555-0100');
  });

  it('answers the article’s own question with the sentence after it, and keeps the best match’s context', () => {
    const receipts =
      'A receipt is emailed within an hour of the visit.\n\n' +
      'Need an older receipt, for example for taxes? Ask the assistant and we will resend receipts from the last ' +
      '24 months. Older records can be requested from our team.';
    expect(bestSentences(receipts, snippetWords('how do I get a copy of an old receipt for my taxes?'), 2)).toContain(
      'we will resend receipts',
    );
    const payments =
      'We accept card payments from every major bank.\n\n' +
      'Payments are made online with the card saved on your account. Our technicians do not take payment at the ' +
      'door and we do not accept cash. You may tip in cash.';
    expect(bestSentences(payments, snippetWords('can I pay cash to the technician?'), 2)).toContain(
      'Payments are made online',
    );
  });

  it('reads a price question in everyday words ("more expensive") as one about fees and surcharges', () => {
    const body =
      'The two hill towns are in our extended service area. Our technicians are based in the city.\n\n' +
      'Like all our fees, it is not discounted by the plan or senior discounts, and it is not refunded.\n\n' +
      'Visits there carry a $35 travel surcharge.';
    const snippet = bestSentences(body, snippetWords('Do you service the hill towns? Is it more expensive there?'));
    expect(snippet).toContain('$35 travel surcharge');
  });
});

describe('bestSentences: the passage carrying the condition asked about', () => {
  it('picks the sentence with the question’s rare condition word over ones repeating the article’s topic', () => {
    // "plan" and "weekly" are in most sentences (what the article is about); "travel" in one (the condition).
    const body =
      'A weekly plan gets 15% off every visit on the plan. A plan every two weeks gets 10% off.\n\n' +
      'For a small home, a weekly plan works out to $126 a visit, and the plan discount applies to extra rooms.\n\n' +
      'The plan discount does not apply to fees such as the travel surcharge.\n\n' +
      'You can pause a weekly plan or end the plan at any time.';
    const snippet = bestSentences(body, snippetWords('on the weekly plan does my 15% come off the travel charge'), 2);
    expect(snippet).toContain('does not apply to fees such as the travel surcharge');
  });

  it('reads a wait and an upfront payment in the article’s words (thesaurus)', () => {
    const body =
      'If a charge on your statement looks unfamiliar, compare it with your receipt and your statement.\n\n' +
      'If you still think something is wrong, let us know within 60 days.\n\n' +
      'The technician will knock, call and wait for 15 minutes.\n\n' +
      'We take a 25% deposit for bookings over $300.';
    const one = (q: string) => bestSentences(body, snippetWords(q), 1);
    expect(one('how long will the cleaner hang around if im not home')).toContain('wait for 15 minutes');
    expect(one('how much do you take upfront')).toContain('25% deposit');
  });
});

describe('bestSentences: the sentence with the kind of fact asked for', () => {
  const body =
    'On request, we clean with plant-based products that are safer around children and pets. There is no extra ' +
    'charge.\n\nWe can also use fragrance-free products if anyone in your home is sensitive to scents. Let us know ' +
    'which you prefer and we will save it to your account, so every visit uses the same products.\n\n' +
    'On very heavy grease, such as a neglected oven, eco products can take a little longer, but the price stays ' +
    'the same.';

  for (const q of [
    'my son gets headaches from scents, can you use fragrance-free products? does that cost more',
    'can your cleaners bring plant-based products for my kids, and is that more expensive',
  ])
    it(`keeps the unconditional amount among the words of the question: ${q}`, () => {
      const snippet = bestSentences(body, snippetWords(q), 3, 520, answerKinds(q));
      expect(snippet).toContain('There is no extra charge.');
    });

  it('picks on the question words alone when no kind of fact is asked', () => {
    const q = 'can you use fragrance-free products? my son gets headaches from scents';
    const snippet = bestSentences(body, snippetWords(q), 3, 520, answerKinds(q));
    expect(snippet).toContain('fragrance-free products if anyone');
    expect(snippet).not.toContain('no extra charge');
  });
});
