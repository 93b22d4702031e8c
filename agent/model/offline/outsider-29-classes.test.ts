import type { BaseMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { planTurn, toAIMessage } from './planner.js';
import { customer, seedArticles, seedContext, system } from './testing.js';

describe('a day and time given in after we said what cannot be done', () => {
  it('"Oh well. Tomorrow at 3 then, please." after same-day visits are refused: the visit asked for', () => {
    const ctx = seedContext({ retrieved: seedArticles('kb-hours-and-availability-03') });
    const window: BaseMessage[] = [
      system(ctx),
      customer('Is there any chance someone could come today? The kitchen tap is dripping non-stop.'),
    ];
    const first = planTurn(window);
    expect(first.calls).toEqual([]);
    const t = planTurn([...window, toAIMessage(first, window, 't'), customer('Oh well. Tomorrow at 3 then, please.')]);
    expect(t.calls.map((c) => c.name)).toEqual(['book_slot']);
    expect(t.calls[0]!.args).toMatchObject({
      service_id: 'svc_faucet_repair',
      start_time: '2026-12-08T15:00:00-05:00',
    });
  });
});

describe('a question about a day, then the day wanted instead', () => {
  it('"is fri 11th any good …? hmm no … do the tuesday after that instead, same time": that visit asked for', () => {
    const ctx = seedContext();
    const t = planTurn([
      system(ctx),
      customer(
        'is fri 11th any good for someone to fix the dripping bathroom tap? like 1pm. hmm no fridays are a mess ' +
          'for me actually, do the tuesday after that instead, same time',
      ),
    ]);
    expect(t.calls.map((c) => c.name)).toEqual(['book_slot']);
    expect(t.calls[0]!.args).toMatchObject({
      service_id: 'svc_faucet_repair',
      start_time: '2026-12-15T13:00:00-05:00',
    });
  });

  it('"what do the tuesday slots look like?" asks, and books nothing', () => {
    const ctx = seedContext();
    const t = planTurn([system(ctx), customer('what do the tuesday slots look like for a tap repair?')]);
    expect(t.calls.filter((c) => c.name === 'book_slot')).toEqual([]);
  });
});
