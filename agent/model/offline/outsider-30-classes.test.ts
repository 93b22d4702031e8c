import { describe, expect, it } from 'vitest';
import { afterOurQuestion, plan, planMessage, seedArticles, seedContext, writeNames } from './testing.js';

const ctx = seedContext();

const answered = (first: string, second: string) => afterOurQuestion(ctx, first, second);

describe('a value given right after we asked for it', () => {
  it('the whole phone number after we said the one given was cut short', () => {
    const t = answered('new phone number is 555-619-44', 'sorry! 555-619-4426');
    expect(writeNames(t)).toEqual(['update_customer']);
    expect(t.calls[0]!.args).toMatchObject({ changes: { phone: '555-619-4426' } });
  });

  it('the channel after we asked how to reach them instead', () => {
    const t = answered('can you stop emailing me about appointments, i never check it', 'texts r fine');
    expect(writeNames(t)).toEqual(['update_customer']);
    expect(t.calls[0]!.args).toEqual({ customer_id: 'cus_001', changes: { preferences: { contact: 'sms' } } });
  });
});

describe('a channel said of someone else', () => {
  it('"change the number on her account … so that you text her rather than ring": no change of their own', () => {
    const t = plan(
      ctx,
      'My neighbour, Grace Okafor, is rather hard of hearing and has asked me to change the telephone number on ' +
        'her account to 555 233 0914 so that you text her rather than ring. Would you be so kind?',
    );
    expect(writeNames(t)).toEqual([]);
  });

  it('"text me rather than ring" is still their own', () => {
    const t = plan(ctx, "going forward please text me rather than ring, i can't hear the phone at work");
    expect(t.calls[0]?.args).toMatchObject({ changes: { preferences: { contact: 'sms' } } });
  });
});

describe('an address handed over as such', () => {
  it('"finally have my address for u: 88 quayside st, apt 9c, …": the address to put on file', () => {
    const t = plan(ctx, 'ok finally have my address for u: 88 quayside st, apt 9c, maple harbor MH 1012');
    expect(writeNames(t)).toEqual(['update_customer']);
    expect(t.calls.find((c) => c.name === 'update_customer')!.args).toMatchObject({
      changes: { address: { line1: '88 quayside st', unit: 'Apt 9C', city: 'Maple Harbor', postal_code: 'MH 1012' } },
    });
  });
});

describe('a new name, wherever the record is named', () => {
  it('"can u change my name on here to chloe martin-reyes, kept mine but added his lol"', () => {
    const t = plan(
      ctx,
      'just got married 💍 can u change my name on here to chloe martin-reyes, kept mine but added his lol',
    );
    expect(t.calls.find((c) => c.name === 'update_customer')?.args).toMatchObject({
      changes: { name: 'Chloe Martin-Reyes' },
    });
  });
});

describe('a note asked for, whom it is for said but not what it says', () => {
  it('"can u add a note to my account for whoever comes out": asked what it should say', () => {
    const t = plan(ctx, 'can u add a note to my account for whoever comes out');
    expect(t.calls).toEqual([]);
    expect(t.content).toMatch(/What would you like the note on your account to say\?/);
  });
});

describe('a question about a service is not a booking of it', () => {
  const withArticles = (...ids: string[]) => seedContext({ retrieved: seedArticles(...ids) });

  it('"if it ends up taking him like 2 hrs … whats the extra": a length of time is no time of day', () => {
    const t = plan(
      withArticles('kb-pricing-07', 'kb-pricing-03'),
      'thinking of getting the handyman to put together a massive wardrobe. if it ends up taking him like 2 hrs ' +
        'instead of the 1 whats the extra on that',
    );
    expect(t.calls).toEqual([]);
    expect(t.content).not.toMatch(/request Handyman Hour/);
    expect(t.meta?.offer).toBeUndefined();
  });

  it('"… lol whats the latest a regular clean can start on a saturday": a laugh ends the sentence before it', () => {
    const t = plan(
      withArticles('kb-hours-and-availability-05', 'kb-hours-and-availability-01'),
      'we are not morning people lol whats the latest a regular clean can start on a saturday',
    );
    expect(t.calls).toEqual([]);
    expect(t.content).toContain('1:00 p.m.');
    expect(t.content).not.toMatch(/what time on/);
  });

  it('"got an 85 inch tv for xmas … can ur guys even hang something that big": asks whether, not for a day', () => {
    const t = plan(
      withArticles('kb-pricing-04', 'kb-preparing-for-a-visit-03'),
      'bf got an 85 inch tv for xmas 😭 can ur guys even hang something that big',
    );
    expect(t.calls).toEqual([]);
    expect(t.content).toContain('75 inches');
    expect(t.content).not.toMatch(/closed on Christmas|book TV Wall Mounting/);
  });
});

describe('a name sent after we asked for it', () => {
  it('"It\'s Brookes, with an e before the s." after asking to fix the surname: the surname on file replaced', () => {
    const t = answered(
      'Could you correct the spelling of my surname on my account, please? It has been wrong for ages.',
      "It's Brookes, with an e before the s.",
    );
    expect(t.calls).toEqual([
      { name: 'update_customer', args: { customer_id: 'cus_001', changes: { name: 'Maria Brookes' } } },
    ]);
  });

  it('a first name alone after asking about the first name; a whole name as it is', () => {
    expect(answered('my first name is spelt wrong on my account, can you change it', 'Mariah').calls[0]?.args).toEqual({
      customer_id: 'cus_001',
      changes: { name: 'Mariah Gonzalez' },
    });
    expect(answered('can you fix my name on my account', 'Maria Gonzales-Ruiz').calls[0]?.args).toMatchObject({
      changes: { name: 'Maria Gonzales-Ruiz' },
    });
  });

  it('an answer that is no name changes nothing', () => {
    expect(answered('can you fix my name on my account', 'hmm not sure actually, let me check').calls).toEqual([]);
  });
});
