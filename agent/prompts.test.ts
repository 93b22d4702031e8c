import { describe, expect, it } from 'vitest';
import { CHANGE_POLICY } from '../schema/business/change-policy.js';
import { systemPrompt } from './prompts.js';
import { makeContext } from './model/offline/testing.js';

describe('the system prompt for a real model', () => {
  const prompt = systemPrompt(makeContext());

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
});
