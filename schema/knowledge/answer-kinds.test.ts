import { describe, expect, it } from 'vitest';
import { answerKinds, statesKinds } from './answer-kinds.js';

describe('answerKinds: the kind of fact a question asks for', () => {
  it('reads an amount, a length of time and a clock time from how the question is put', () => {
    expect([...answerKinds('how much do you take upfront?')]).toEqual(['price']);
    expect([...answerKinds('how do you bill after the first hour?')]).toEqual(['price']);
    expect([...answerKinds('is there a time limit to query a charge?')]).toEqual(['duration']);
    expect([...answerKinds('can the plan be put on hold that long?')]).toEqual(['duration']);
    expect([...answerKinds('how soon will someone come back out?')]).toEqual(['duration']);
    expect([...answerKinds("what's the latest I can call for a same-day visit?")]).toEqual(['clock']);
    expect([...answerKinds('wat time do u open on saturdy')]).toEqual(['clock']);
  });

  it('reads being told of something ahead as a notice, not "tell me" the price', () => {
    expect(answerKinds('will someone tell me beforehand that it moves?').has('notice')).toBe(true);
    expect(answerKinds('can you remind me when I can book it?').has('notice')).toBe(true);
    expect(answerKinds('can you tell me how much a deep clean is?').has('notice')).toBe(false);
    expect(answerKinds('can you tell me the price?').has('notice')).toBe(false);
  });

  it('asks for no amount when a fee is only the condition, and no time when a day is asked about', () => {
    expect(answerKinds('does my 15% also come off the travel charge?').has('price')).toBe(false);
    expect(answerKinds('are you closed on christmas day?').has('clock')).toBe(false);
    expect(answerKinds('can my dog stay in the garden?').size).toBe(0);
  });
});

describe('statesKinds: whether a sentence states the fact', () => {
  const kinds = answerKinds('how soon, and how much?');

  it('finds amounts and lengths of time, in figures or words', () => {
    expect(statesKinds('We book a return visit within 5 business days.', kinds)).toBe(1);
    expect(statesKinds('We message you at least one week ahead.', kinds)).toBe(1);
    expect(statesKinds('The deposit is $87.25, refunded within 2 business days.', kinds)).toBe(2);
    expect(statesKinds('We handle that quietly.', kinds)).toBe(0);
  });

  it('finds a notice: we message, remind or call you', () => {
    const notice = answerKinds('will you let me know beforehand?');
    expect(statesKinds('We move it to the next business day and message you at least one week ahead.', notice)).toBe(1);
    expect(statesKinds('We will remind you as soon as the day opens for booking.', notice)).toBe(1);
    expect(statesKinds('If a plan visit falls on a holiday we move it to the next business day.', notice)).toBe(0);
  });

  it('finds clock times only when one is asked for', () => {
    expect(statesKinds('We close early at 2:00 p.m.', answerKinds('what time do you close?'))).toBe(1);
    expect(statesKinds('We close early at 2:00 p.m.', kinds)).toBe(0);
  });
});

describe('statesKinds: a fee taken away answers whether something costs', () => {
  const price = answerKinds('do we still get charged for cancelling?');
  it('counts a waiver or "free of charge" as the price fact, as much as an amount', () => {
    expect(price.has('price')).toBe(true);
    expect(statesKinds('we will waive the late cancellation fee', price)).toBeGreaterThan(0);
    expect(statesKinds('a second visit is free of charge', price)).toBeGreaterThan(0);
    expect(statesKinds('a late cancellation costs $25', price)).toBeGreaterThan(0);
    expect(statesKinds('please tell us as early as you can', price)).toBe(0);
  });
});

describe('statesKinds: "no extra charge" and a share of the price answer whether something costs more', () => {
  const price = answerKinds('can you use unscented products? and does that cost more');
  it('counts a cost taken away or a share of the price', () => {
    expect(statesKinds('There is no extra charge.', price)).toBe(1);
    expect(statesKinds('Refills are at no additional cost to you.', price)).toBe(1);
    expect(statesKinds('They take a little longer, but the price stays the same.', price)).toBe(1);
    expect(statesKinds('Cancelling late costs 50% of the service price.', price)).toBe(1);
  });
  it('does not count a share of something else, or "no" before another word', () => {
    expect(statesKinds('100% of every tip goes to the technician.', price)).toBe(0);
    expect(statesKinds('There is no extra room for the ladder.', price)).toBe(0);
    expect(statesKinds('We cost you no time at all.', price)).toBe(0);
  });
});
