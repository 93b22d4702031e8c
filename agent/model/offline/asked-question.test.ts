import { describe, expect, it } from 'vitest';
import { askedPart } from './analysis/asked-part.js';
import { detectCues } from './analysis/cues.js';
import { answerFromKb } from './replies/knowledge.js';
import { article, makeContext, plan, SEED_SERVICES } from './testing.js';

// The question of a message decides what answers it: a story told before "anyway …" is context, and a
// question the customer announces ("just curious", "quick q") is one without its mark, not a request.

const names = (t: { calls: { name: string }[] }) => t.calls.map((c) => c.name);

const keys = article(
  'How we protect your keys and access codes',
  'If you trust us with a key, it is kept in a locked safe at our office. You can change a lockbox or gate code ' +
    'at any time. If you no longer want us to hold a key, you can collect it from our office during business hours.',
  5.8,
);
const pets = article(
  'Pets during a visit',
  'We love meeting your cats and dogs. Please tell us about any pets when you book.',
  4.7,
);
const saturdays = article(
  'Saturday visits',
  'We work Saturdays from 9:00 a.m. to 2:00 p.m. Saturday visits start on the hour between 9:00 a.m. and 1:00 p.m.',
  4.6,
);
const lateArrival = article(
  'If your technician is running late',
  'If your technician arrives more than 30 minutes after your booked start time, we add a $25 credit to your ' +
    'account automatically.',
  6.4,
);
const installPrices = article(
  'Installation prices',
  'TV Wall Mounting is $159 for one TV up to 75 inches. You can use your own bracket, or we can bring a ' +
    'universal tilting bracket for $45.',
  8.8,
);

describe('askedPart: what a message asks once it turns to its question', () => {
  it.each([
    [
      'lol so my dog literally ate the lockbox key this morning. anyway what time do u open on saturdays',
      'what time do u open on saturdays',
    ],
    ['we got a new puppy!! anyway my actual q: can i leave a key for the cleaner', 'can i leave a key for the cleaner'],
    [
      'the kids broke the gate again haha. my question is: how much is a handyman hour?',
      'how much is a handyman hour?',
    ],
    ['long week here. anyways, do you work on saturdays? thanks', 'do you work on saturdays?'],
  ])('%s', (text, question) => {
    // The words that turn to the question are no part of it ("ask us anyway" answers nothing).
    const part = askedPart(text);
    expect(part?.question).toBe(question);
    expect(part?.context).not.toContain(question);
  });

  it.each([
    // No turn to a question: the sentences around it often say what it is about.
    'my landlord keeps asking whether you are insured. is there anything i can show him',
    'we have a baby coming in january!! can the weekly clean be paused for a bit after?',
    // Nothing before the turn, or nothing asked after it.
    'anyway what time do you open on saturdays',
    'the cleaner was great today. anyway thanks again',
  ])('nothing set apart: %s', (text) => {
    expect(askedPart(text)).toBeUndefined();
  });
});

describe('answerFromKb: the question, not the story before it, picks the article', () => {
  const ctx = makeContext({ services: SEED_SERVICES, retrieved: [keys, pets, saturdays] });

  it.each([
    'lol so my dog literally ate the lockbox key this morning. anyway what time do u open on saturdays',
    'our dog chewed up the spare key last night, unreal. anyways what hours do you work on saturdays?',
  ])('%s', (text) => {
    const a = answerFromKb(text, ctx);
    expect(a?.articleId).toBe(saturdays.id);
    expect(a?.text).toContain('9:00 a.m.');
  });

  it('a question about the story itself still gets the story’s article', () => {
    const a = answerFromKb('my dog ate the lockbox key. anyway can i change the lockbox code?', ctx);
    expect(a?.articleId).toBe(keys.id);
  });
});

describe('an announced question is a question, not a complaint or a booking', () => {
  it.each([
    ['just curious, if a tech shows up like 40 min late do i get anything', true],
    ['quick q re the tv mount thurs - does the tech bring a bracket or do i buy one', true],
    ['random question for u - do the techs bring a ladder', true],
    ['out of curiosity do you guys work on sundays', true],
    ['the tv mount thurs - bring a bracket please', false],
    ['my tech showed up 40 min late today', false],
  ])('%s → question %s', (text, question) => {
    expect(detectCues(text).question).toBe(question);
  });

  it.each([
    'not complaining just curious, if a tech shows up like 40 min late do i get anything for that',
    'just curious - if the cleaner turns up an hour late is there some kind of credit',
  ])('a late arrival asked about opens no ticket and gets the credit: %s', (text) => {
    const t = plan(makeContext({ services: SEED_SERVICES, retrieved: [lateArrival] }), text);
    expect(names(t)).toEqual([]);
    expect(t.content).toContain('$25');
  });

  it('a late arrival reported is still a ticket', () => {
    const t = plan(
      makeContext({ services: SEED_SERVICES, retrieved: [lateArrival] }),
      'the tech showed up 40 min late today and nobody told us, not ok',
    );
    expect(names(t)).toContain('create_ticket');
  });

  it.each([
    'quick q re the tv mount thurs - does the tech bring a bracket or do i buy one',
    'small question about the tv mounting on thursday, do i need to buy my own bracket',
  ])('a question about a visit named with its day books nothing: %s', (text) => {
    const t = plan(makeContext({ services: SEED_SERVICES, retrieved: [installPrices] }), text);
    expect(names(t)).toEqual([]);
    expect(t.content).toContain('$45');
  });

  it.each([
    'tv mount thursday at 2pm please, bring a bracket',
    'quick q, can you book the tv mount thursday at 2pm',
    'quick question - i need a tv mounted thursday at 2pm',
  ])('the same visit asked for is still booked: %s', (text) => {
    const t = plan(makeContext({ services: SEED_SERVICES, retrieved: [installPrices] }), text);
    expect(names(t)).toContain('book_slot');
  });
});
