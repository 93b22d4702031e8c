import { describe, expect, it } from 'vitest';
import { CHANGE_POLICY } from '../schema/business/change-policy.js';
import { articleLines, needsChangeRules, REFERENCE_CHARS, systemPrompt } from './prompts.js';
import { makeContext } from './model/offline/testing.js';

const moveTurn = { customerTexts: ['Can you move my deep clean to Friday?'] };

describe('the system prompt for a real model', () => {
  const prompt = systemPrompt(makeContext(), moveTurn);

  it('moves and cancels existing bookings with their own tools, after looking the bookings up, never book_slot', () => {
    expect(prompt).toMatch(/reschedule_booking/);
    expect(prompt).toMatch(/cancel_booking/);
    expect(prompt).toMatch(/lookup_customer[^.]*upcoming_bookings/);
    expect(prompt).toMatch(/[Nn]ever (?:call |use )?book_slot/);
    expect(prompt).toMatch(/ask which one/i);
  });

  it('states the change fees from the business rules, and tells the model to tell the customer', () => {
    for (const rule of [...CHANGE_POLICY.reschedule, ...CHANGE_POLICY.cancel]) expect(prompt).toContain(rule.label);
    expect(prompt).toMatch(/state the fee/i);
  });

  it('names no customer id: the plan step fills it in every call', () => {
    expect(prompt).not.toMatch(/customer_id|cus_/);
  });
});

describe('the move and cancel rules only in turns about a change', () => {
  it('read broadly from the customer, the best hits and what waits', () => {
    const ctx = makeContext();
    for (const text of [
      'Can you move my deep clean to Friday?',
      'please cancel my booking',
      'I need to call off the visit',
      'can we postpone it',
      'reschedule please',
      'how late can I cancel without a fee?',
    ])
      expect(needsChangeRules(ctx, [text]), text).toBe(true);
    for (const text of ['What are your opening hours on Saturdays?', 'Can you book a deep clean for Thursday?'])
      expect(needsChangeRules(ctx, [text]), text).toBe(false);
    const hit = { id: 'kb-x', title: 'Fees', topic: 'cancellation-and-rescheduling', snippet: 'Text.', score: 1 };
    expect(needsChangeRules(makeContext({ retrieved: [hit] }), ['hello'])).toBe(true);
    const pending = [{ approval_id: 'apr_1', tool: 'cancel_booking', args: { booking_id: 'BKG-1' } }];
    expect(
      needsChangeRules(makeContext({ pending: pending.map((p) => ({ ...p, tool_call_id: 'c', expires_at: '' })) }), []),
    ).toBe(true);
  });

  it('are left out of a knowledge question', () => {
    const prompt = systemPrompt(makeContext(), { customerTexts: ['What are your opening hours on Saturdays?'] });
    expect(prompt).not.toMatch(/reschedule_booking|Fees:/);
  });
});

describe('the articles within the reference budget', () => {
  const sentence = (n: number) => `Sentence ${n} says something about the topic at some length here.`;
  const hit = (i: number, sentences: number) => ({
    id: `kb-${i}`,
    title: `Article ${i}`,
    topic: 'booking',
    snippet: Array.from({ length: sentences }, (_, k) => sentence(k)).join(' '),
    score: 5 - i,
  });

  it('keeps the best hit whole, the next ones by whole sentences, the rest by title', () => {
    const lines = articleLines([hit(0, 8), hit(1, 8), hit(2, 8)], 700);
    expect(lines[0]).toBe(`- Article 0: ${hit(0, 8).snippet}`);
    expect(lines[1]).toMatch(/^- Article 1: Sentence 0 .*\.$/);
    expect(lines[1]!.length).toBeLessThan(`- Article 1: ${hit(1, 8).snippet}`.length);
    expect(lines[2]).toBe('- Article 2 (search for it)');
  });

  it('shows five short hits whole', () => {
    const hits = [0, 1, 2, 3, 4].map((i) => hit(i, 2));
    expect(articleLines(hits, REFERENCE_CHARS)).toEqual(hits.map((h) => `- ${h.title}: ${h.snippet}`));
  });

  it('are not repeated after a manager decided: the decision is what the model reports', () => {
    const ctx = makeContext({ retrieved: [hit(0, 2)] });
    expect(systemPrompt(ctx, { customerTexts: ['Can I book for Thursday?'] })).toContain('Article 0');
    const after = systemPrompt(ctx, { customerTexts: ['Can I book for Thursday?'], afterDecision: true });
    expect(after).not.toContain('Article 0');
    expect(after).not.toMatch(/Services \(id/);
  });
});
