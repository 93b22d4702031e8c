import { describe, expect, it } from 'vitest';
import { measurePlanTurns, planTurns } from './plan-prompt.js';

/*
 * The prompt a plan call pays for, counted with the Gemma 3 tokenizer on the request the real
 * Gemini client sends: a prompt that grows past its budget fails here, not on the bill. Issue 11's
 * budget holds for these turns, each with five retrieved articles where the turn retrieves.
 */
const PLAN_CALL_BUDGET = 1500;
/** A turn about moving a booking also carries the two booking-change tools and their rules. */
const BOOKING_CHANGE_BUDGET = 1800;

describe('prompt tokens per plan call', () => {
  it('stays within budget on every kind of turn; an unlinked user is sent no write tools', async () => {
    const rows = await measurePlanTurns();
    console.table(rows);
    const by = Object.fromEntries(rows.map((r) => [r.turn, r]));
    expect(rows.map((r) => r.turn)).toEqual(planTurns().map((t) => t.name));
    const budgeted = [
      'knowledge question, 5 articles',
      'booking request, 5 articles',
      'after an approval decision',
      'unlinked user question, 5 articles',
    ];
    for (const turn of budgeted) expect(by[turn]?.total, turn).toBeLessThanOrEqual(PLAN_CALL_BUDGET);
    expect(by['booking change, 5 articles']!.total).toBeLessThanOrEqual(BOOKING_CHANGE_BUDGET);
    // Every write a linked customer can ask for in the turn is declared; moving and cancelling only
    // in a turn about a change.
    for (const turn of budgeted.slice(0, 3)) expect(by[turn]!.declarations, turn).toBe(6);
    expect(by['booking change, 5 articles']!.declarations).toBe(8);
    expect(by['unlinked user question, 5 articles']!.declarations).toBe(1);
    expect(by['unlinked user question, 5 articles']!.total).toBeLessThan(800);
  }, 30_000);
});
