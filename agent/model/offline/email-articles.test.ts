import { describe, expect, it } from 'vitest';
import { contentWords } from './analysis/text.js';
import { ARTICLES, makeContext, plan, SEED_SERVICES } from './testing.js';

const ctx = makeContext({ services: SEED_SERVICES, retrieved: [ARTICLES.refunds] });

describe('an email of a help-centre article is sent only when the request names its topic', () => {
  it.each([
    'can you email me your refund policy',
    'pls email me how refunds work',
    'email me your policy on refunds please',
    'email me what happens with a refund',
  ])('%s', (text) => {
    const t = plan(ctx, text);
    expect(t.calls.map((c) => c.name)).toEqual(['send_email']);
    expect(t.calls[0]!.args.subject).toContain('Refunds');
  });
  it.each(['can you email me the details?', 'email me the info', 'send me a copy by email'])('%s', (text) => {
    expect(plan(ctx, text).calls).toEqual([]);
  });
});

describe('contentWords with a minimum length', () => {
  it('drops short words but keeps numbers, stemmed as ever', () => {
    expect([...contentWords('the fee for a refund is $35', 4)]).toEqual(['refund', '$35']);
    expect([...contentWords('the fee for a refund', 2)]).toEqual(['fee', 'refund']);
  });
});
