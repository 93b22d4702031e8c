import { describe, expect, it } from 'vitest';
import { reportsProblem, triage } from './analysis/entities.js';
import { makeContext, plan, SEED_SERVICES } from './testing.js';

// Work of ours that is coming away after the visit is a guarantee claim; the same failure only supposed
// ("if it comes loose later?") is a question about the guarantee.

const ctx = makeContext({ services: SEED_SERVICES });
const names = (t: { calls: { name: string }[] }) => t.calls.map((c) => c.name);

describe('past work failing is a guarantee claim', () => {
  it.each([
    'the shelf your guy hung 2 weeks ago is already pulling out of the wall, screws are half out. guarantee??',
    'the curtain rod your handyman put up last week is pulling away from the plaster',
    'the towel bar you installed is working itself loose already',
    'the cabinet door you guys fixed is falling apart again',
  ])('a ticket: %s', (text) => {
    expect(reportsProblem(text)).toBe(true);
    expect(triage(text).label).toBe('Warranty claim');
    expect(names(plan(ctx, text))).toContain('create_ticket');
  });

  it.each([
    'the shelf i hung myself is pulling out of the wall, can a handyman fix it friday at 10?',
    'your guy hung the shelf last week and it looks great, thanks!',
    'does the guarantee cover a shelf your guy hung if it comes loose later?',
    'would the guarantee cover it if the shelf your guy hung ever came loose?',
    'the tv your installer mounted, is it covered should it start pulling out of the wall?',
  ])('no guarantee ticket: %s', (text) => {
    expect(names(plan(ctx, text))).not.toContain('create_ticket');
  });
});
