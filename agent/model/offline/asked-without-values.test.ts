import { describe, expect, it } from 'vitest';
import { afterLookup, plan, planMessage, seedContext, TV_THURSDAY, upcoming, writeNames } from './testing.js';

// Requests that name what to change but not what to change it to, asked about instead of left unread: a value to go
// "on my account", a note to be rewritten, a visit asked for with "please" before "come", a booking to "be a bit
// later" or "be friday instead" with no time said.

const ctx = seedContext();

describe('asked for what the request leaves out', () => {
  it.each([
    ['can you put my address on my account, its not on there yet', /send me the new address/],
    ['could you save my email to my file please', /What email address should we have/],
    ['need to update the note about the rabbit for the cleaners, things changed', /What would you like the note/],
    [
      "Excuse me, could someone please come on Friday the 11th at 9 o'clock? It is about the bathroom. Thank you.",
      /which service you'd like/,
    ],
  ])('%s', (text, asked) => {
    const t = plan(ctx, text);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(asked);
    expect(t.content).toMatch(/\?/);
  });

  it.each([
    ['cant do thursday anymore 😩 can the tv thing be friday instead? just not the afternoon', TV_THURSDAY],
    [
      "can the fan install on the 18th be a bit later? after i've done the school run",
      upcoming('BKG-1010', 'svc_ceiling_fan_install', '2026-12-18T08:00:00-05:00'),
    ],
  ])('%s', (text, booking) => {
    const t = afterLookup(ctx, text, [booking]);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/would you like .*(?:instead|moved to)/i);
  });
});

describe('the address given after we asked for it', () => {
  const asked = 'can you put my address on my account, its not on there yet';
  it.each(['14 Kestrel Road, Fernbrook MH 2105', "it's 14 Kestrel Road, Fernbrook MH 2105"])('%s', (text) => {
    const t = plan(ctx, asked, planMessage(ctx, asked), text);
    expect(writeNames(t)).toEqual(['update_customer']);
    expect(t.calls[0]!.args).toMatchObject({
      changes: { address: { line1: '14 Kestrel Road', city: 'Fernbrook', postal_code: 'MH 2105' } },
    });
  });

  it('a street without its number is asked about again', () => {
    const t = plan(ctx, asked, planMessage(ctx, asked), 'Kestrel Road, Fernbrook');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/house number/);
  });

  it('a question instead is not an address', () => {
    expect(writeNames(plan(ctx, asked, planMessage(ctx, asked), 'what areas do you cover?'))).toEqual([]);
  });
});
