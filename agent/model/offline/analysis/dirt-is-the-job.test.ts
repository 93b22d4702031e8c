import { describe, expect, it } from 'vitest';
import { makeContext, plan, SEED_SERVICES } from '../testing.js';
import { dirtIsTheJob } from './entities.js';

const ctx = makeContext({ services: SEED_SERVICES });
const tools = (text: string) => plan(ctx, text).calls.map((c) => c.name);

describe('dirt that describes the job is a cleaning to book, not a complaint', () => {
  it.each([
    ['windows (inside) are filthy after the renovation dust. wednesday the 16th at 10 pls', 'svc_window_clean'],
    ['place is filthy after the party, can someone do a deep clean friday at 9?', 'svc_deep_clean'],
    ['the oven is grimy and the floors are dusty - standard clean tuesday the 15th at 9 please', 'svc_standard_clean'],
  ])('%s', (text, service) => {
    const t = plan(ctx, text);
    expect(t.calls.map((c) => c.name)).toEqual(['book_slot']);
    expect(t.calls[0]!.args.service_id).toBe(service);
  });

  it.each([
    'the windows are still filthy after your clean yesterday',
    'the kitchen is filthy, the cleaners didnt clean it',
    'your cleaner left the bathroom dirty again',
    'the windows were filthy after the window clean on monday, not happy',
    "I'd like a refund for last week's deep clean, they left the oven dirty",
    'they left the kitchen filthy, standard clean friday at 9 to redo it',
  ])('left after our visit, still a complaint: %s', (text) => {
    expect(tools(text)).toContain('create_ticket');
    expect(tools(text)).not.toContain('book_slot');
  });

  it('reads only dirt nobody ties to our work', () => {
    expect(dirtIsTheJob('the carpets are filthy from the dog')).toBe(true);
    expect(dirtIsTheJob('the carpets are lovely')).toBe(false);
    expect(dirtIsTheJob('the cleaners left it dirty')).toBe(false);
    expect(dirtIsTheJob('dusty again even after the deep clean')).toBe(false);
  });
});
