import { describe, expect, it } from 'vitest';
import { article, callNames, MARIA, plan, planMessage, seedContext } from '../testing.js';

/*
 * A complaint that asks whether putting it right is free, where the help centre says that very thing is
 * not covered: answered, and the ticket offered instead of filed.
 */
const guarantee = article(
  'Cleaning satisfaction guarantee',
  'If something was missed, tell us within 48 hours and we will re-clean those areas at no charge. ' +
    'It covers the tasks included in the service you booked, so inside the fridge missed on a deep cleaning ' +
    'qualifies, while inside the fridge on a standard cleaning does not, because it is not part of that service.',
);
const ctx = seedContext({ customer: MARIA, retrieved: [guarantee] });

describe('a complaint asking whether the guarantee covers what the help centre excludes', () => {
  it('answers with the exclusion and offers the ticket', () => {
    const turn = plan(ctx, 'they skipped the fridge on my standard clean, can they come back and do it for free?');
    expect(callNames(turn)).toEqual([]);
    expect(turn.content).toContain('on a standard cleaning does not');
    expect(turn.meta?.offer).toMatchObject({ kind: 'propose', tool: 'create_ticket' });
  });

  it('still files a complaint the guarantee covers, or one that asks nothing', () => {
    // The deep cleaning includes it: the clause that excludes names another service.
    expect(
      callNames(plan(ctx, 'they skipped the fridge on my deep clean, can they come back and do it for free?')),
    ).toEqual(['create_ticket']);
    // Nothing excluded about the bathroom.
    expect(
      callNames(plan(ctx, 'they skipped the bathroom on my standard clean, can they come back and do it for free?')),
    ).toEqual(['create_ticket']);
    expect(callNames(plan(ctx, 'they skipped the fridge on my standard clean, not happy'))).toEqual(['create_ticket']);
  });

  it('files the ticket when the customer takes the offer up', () => {
    const first = 'they skipped the fridge on my standard clean, can they come back and do it for free?';
    expect(callNames(plan(ctx, first, planMessage(ctx, first), 'yes please'))).toEqual(['create_ticket']);
  });
});
