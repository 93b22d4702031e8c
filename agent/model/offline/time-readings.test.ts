import { describe, expect, it } from 'vitest';
import { presenceWindow } from './analysis/presence.js';
import { plan, planMessage, seedContext, writeNames } from './testing.js';

// Times a booking request leaves open although it names a number: "saturday 12" when the 12th is a Saturday (the day,
// or noon?), and a start outside the hours the customer says they are home ("9am … im home from 11").

const ctx = seedContext(); // Monday, Dec 7: the 12th is a Saturday, the 10th a Thursday

describe('a weekday and a bare number that is both its day and an hour is asked about', () => {
  it.each(['handyman saturday 12 possible? need curtain rails put up', 'can i get a deep clean thursday 10?'])(
    '%s',
    (text) => {
      const t = plan(ctx, text);
      expect(writeNames(t)).toEqual([]);
      expect(t.content).toMatch(/did you mean .*, or another time on/);
    },
  );

  it.each([
    ['handyman saturday 12 at 10', '2026-12-12T10:00:00-05:00'],
    ['handyman saturday at 12', '2026-12-12T12:00:00-05:00'],
    ['handyman saturday 12pm', '2026-12-12T12:00:00-05:00'],
    ['handyman saturday 10 possible?', '2026-12-12T10:00:00-05:00'],
    ['handyman saturday 19 at 9', '2026-12-19T09:00:00-05:00'],
  ])('%s', (text, start) => {
    const t = plan(ctx, text);
    expect(writeNames(t)).toEqual(['book_slot']);
    expect(t.calls.find((c) => c.name === 'book_slot')!.args).toMatchObject({ start_time: start });
  });
});

describe('a start outside the hours the customer is home is asked about', () => {
  it.each([
    'handyman friday 11th at 9am pls, im home from 11 so that works perfect',
    'deep clean thursday 10th at 9am, not back till 1 though',
    'can the handyman come friday 11th at 3pm? im only home until 2',
  ])('%s', (text) => {
    const t = plan(ctx, text);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/You asked for .*, but said you're there/);
  });

  it.each([
    'handyman friday 11th at 11am pls, im home from 11',
    'handyman friday 11th at 2pm, im home from 11 so that works',
    'handyman friday 11th at 9am, my wife is back from holiday that day',
  ])('%s', (text) => {
    expect(writeNames(plan(ctx, text))).toEqual(['book_slot']);
  });

  it('reads the hours said', () => {
    expect(presenceWindow('im home from 11')).toEqual({ from: { hour: 11, minute: 0 } });
    expect(presenceWindow('not back till 1')).toEqual({ from: { hour: 13, minute: 0 } });
    expect(presenceWindow('only home until noon')).toEqual({ until: { hour: 12, minute: 0 } });
  });
});

describe('a day settled on after another was named', () => {
  const late = seedContext({ now: '2026-12-17T15:00:00.000Z' });
  it.each([
    ['omg duh its xmas. saturday 26th then, 9 still good', '2026-12-26T09:00:00-05:00'],
    ['ugh the 25th is christmas lol. the 26th instead, 9 still works', '2026-12-26T09:00:00-05:00'],
  ])('%s', (second, start) => {
    const first = 'could i squeeze in a standard clean fri the 25th at 9?';
    const asked = planMessage(late, first);
    expect(asked.tool_calls ?? []).toEqual([]);
    const t = plan(late, first, asked, second);
    expect(writeNames(t)).toEqual(['book_slot']);
    expect(t.calls.find((c) => c.name === 'book_slot')!.args).toMatchObject({
      service_id: 'svc_standard_clean',
      start_time: start,
    });
  });
});
