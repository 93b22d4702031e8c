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

describe('an email asked for a list of things: the service named and the articles the other items name', () => {
  const both = makeContext({ services: SEED_SERVICES, retrieved: [ARTICLES.saturdays, ARTICLES.refunds] });
  it.each([
    'can u email me your saturday hours + whats included in a standard clean, want to show the wife before we book',
    'email me the standard cleaning details and your saturday hours pls',
    'could you email me the deep clean price & your saturday opening hours',
  ])('%s', (text) => {
    const t = plan(both, text);
    expect(t.calls.map((c) => c.name)).toEqual(['send_email']);
    const body = String(t.calls[0]!.args.body);
    expect(body).toMatch(/Here are the details of (Standard Home|Deep) Cleaning/);
    expect(body).toContain('("Saturday visits")');
    expect(body).not.toContain('Refunds');
  });
  it('one item only, or another item that names no article: the service alone', () => {
    for (const text of ['email me whats included in a standard clean', 'email me the standard clean and thanks']) {
      const body = String(plan(both, text).calls[0]?.args.body);
      expect(body, text).toContain('Here are the details of Standard Home Cleaning');
      expect(body, text).not.toContain('You also asked');
    }
  });
});
