import { describe, expect, it } from 'vitest';
import { article, makeContext, plan, SEED_SERVICES } from './testing.js';

// "someone is ill at home, can somebody still come?" asks whether a visit goes ahead despite it: the help
// centre's question, not a complaint to file or a booking to take.

const ILLNESS =
  'If a visit cannot wait, for example a leaking faucet, tell us who is unwell and we can often still go ahead ' +
  'with the technician working in a separate area and wearing a mask.';
const ctx = makeContext({
  services: SEED_SERVICES,
  retrieved: [article('Changing a visit because someone is ill', ILLNESS)],
});
const names = (t: { calls: { name: string }[] }) => t.calls.map((c) => c.name);

describe('whether a visit goes ahead despite an illness at home', () => {
  it.each([
    'my husband has the flu but the faucet is leaking everywhere, can somebody still come out?',
    'we all have covid but the toilet is leaking, could someone still come out?',
    'my son is home sick and the kitchen tap is dripping, can your plumber still come?',
  ])('answered, nothing filed or booked: %s', (text) => {
    const t = plan(ctx, text);
    expect(names(t)).not.toContain('create_ticket');
    expect(names(t)).not.toContain('book_slot');
    expect(t.content).toContain('working in a separate area');
  });

  it.each([
    'the faucet is leaking everywhere, can somebody come out asap?',
    'the tap you fixed is leaking again, can someone still come out today?',
    'my husband has the flu and the faucet your guy fixed is leaking again',
  ])('still a ticket: %s', (text) => {
    expect(names(plan(ctx, text))).toContain('create_ticket');
  });
});
