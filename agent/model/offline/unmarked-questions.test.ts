import { describe, expect, it } from 'vitest';
import { isInformationQuestion } from './analysis/cues.js';
import { callNames, plan, seedContext } from './testing.js';

// Customers ask without a question mark, after a condition ("if i cancel … how much do i lose"), after a
// story ("lost the receipt 🙃 do i need it…") or indirectly ("i was wondering whether…"). Such a message
// asks; it asks for no booking, change or ticket.

const linked = seedContext();
const unlinked = seedContext({ customer: null });
const OFFERS_BOOKING = /I'd be happy to book|which day and time/;
const UNLINKED_REFUSAL = /isn't linked to a customer record/;

describe('questions without their mark, after a condition or a story, or asked indirectly', () => {
  it.each([
    'if i cancel my 149 clean the afternoon before how much do i lose',
    'i dont get home from work til like 3:30, whats the latest a faucet repair can start on a weekday',
    'not trying to file a complaint or anything, i just wanted to know if i can ask for a different cleaner next time',
    'i have everything set to email but i never check it at work. if the cleaner is running late will i only find ' +
      'out by email??',
    'lost the receipt from when u fixed my faucet 🙃 do i need it for the guarantee thing',
    'i look after my dads house in quarry falls. if i book a clean there do i pay the travel fee even tho i live ' +
      'in northgate?',
    'my oven is gross, like years of grease 🙈 will ur plant based stuff actually work on that or do i need the ' +
      'normal chemicals? also do u bring ur own cloths',
    'i was wondering whether when u book thru this slack bot its booked right away or does an actual person have ' +
      'to ok it first',
    'say i cancel the deep clean the night before what do i pay',
    'moved here last month, do you guys need someone home for a tv mount',
  ])('asks, and gets no proposal and no booking offer: %s', (text) => {
    expect(isInformationQuestion(text)).toBe(true);
    const t = plan(linked, text);
    expect(callNames(t).filter((n) => n !== 'lookup_customer' && n !== 'search_knowledge_base')).toEqual([]);
    expect(t.content).not.toMatch(OFFERS_BOOKING);
  });

  it.each([
    'i was wondering whether when u book thru this slack bot its booked right away or does an actual person have ' +
      'to ok it first',
    'is it true the team checks every booking before its confirmed',
  ])('an unlinked customer asking gets an answer, not the account refusal: %s', (text) => {
    expect(plan(unlinked, text).content).not.toMatch(UNLINKED_REFUSAL);
  });

  it('a report asking what happens now is a report: a ticket', () => {
    const text = 'ur tech scratched the hallway floor moving the couch back last week. got pics. what happens now';
    expect(callNames(plan(linked, text))).toContain('create_ticket');
  });

  it.each([
    'i was wondering if you could book me a standard clean friday at 10',
    'standard clean friday at 10 please',
    'can someone fix my faucet tuesday at 1pm',
    'if its ok can u book a deep clean thursday at 9',
    'wondering if i could get a window clean thursday at 10',
    'wondering if the thermostat install could happen tuesday the 15th around 1?',
    'lost my old booking email lol, book me a window clean tuesday at 1pm',
  ])('a request stays a request: %s', (text) => {
    expect(callNames(plan(linked, text))).toContain('book_slot');
  });
});

describe('which change costs less', () => {
  it.each([
    'whats cheaper if something comes up last min, moving my window clean or just cancelling it?',
    'if i cancel my 149 clean the afternoon before how much do i lose',
  ])('is answered with the change policy: %s', (text) => {
    const t = plan(linked, text);
    expect(callNames(t)).toEqual([]);
    expect(t.content).toMatch(/within 24 hours/);
  });
});
