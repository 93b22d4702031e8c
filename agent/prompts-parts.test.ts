import { describe, expect, it } from 'vitest';
import { needsServices, systemPrompt } from './prompts.js';
import { makeContext } from './model/offline/testing.js';

const hit = (topic: string) => ({ id: `kb-${topic}`, title: `About ${topic}`, topic, snippet: 'Text.', score: 1 });

describe('the system prompt shows the service list only for booking and price talk', () => {
  it('not for an opening-hours question', () => {
    const ctx = makeContext({ retrieved: [hit('hours-and-availability')] });
    expect(needsServices(ctx, ['What are your opening hours on Saturdays?'])).toBe(false);
    expect(systemPrompt(ctx, { customerTexts: ['What are your opening hours on Saturdays?'] })).not.toMatch(
      /Services \(id/,
    );
  });

  it('when a message books, asks a price or names a service; when the best hits are about prices', () => {
    const ctx = makeContext({ retrieved: [hit('hours-and-availability')] });
    const first = ctx.services[0]!;
    expect(needsServices(ctx, ['Can I book for Thursday?'])).toBe(true);
    expect(needsServices(ctx, ['how much do you charge'])).toBe(true);
    expect(needsServices(ctx, [`is ${first.name} good for me`])).toBe(true);
    expect(needsServices(makeContext({ retrieved: [hit('pricing')] }), ['hello'])).toBe(true);
    expect(systemPrompt(ctx, { customerTexts: ['Can I book for Thursday?'] })).toContain(first.id);
  });

  it('renders articles as title and snippet, pending rules only while a request waits', () => {
    const prompt = systemPrompt(makeContext({ retrieved: [hit('pricing')] }));
    expect(prompt).toContain('- About pricing: Text.');
    expect(prompt).not.toContain('kb-pricing');
    expect(prompt).not.toMatch(/withdraw_request/);
    const pending = makeContext({
      pending: [{ approval_id: 'apr_1', tool: 'book_slot', args: {}, tool_call_id: 'c1', expires_at: '' }],
    });
    expect(systemPrompt(pending)).toMatch(/withdraw_request/);
  });

  it('an unlinked user is told a manager must link the account, without the change rules', () => {
    const prompt = systemPrompt(makeContext({ customer: null }));
    expect(prompt).toMatch(/link their Slack account/);
    expect(prompt).not.toMatch(/reschedule_booking|Fees:/);
  });
});
