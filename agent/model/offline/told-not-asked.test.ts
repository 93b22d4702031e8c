import { describe, expect, it } from 'vitest';
import { changeOf, stanceOf, stanceOfValue } from './analysis/evidence.js';
import { makeContext, plan, SEED_SERVICES } from './testing.js';

// Evidence required: a story about a field of the record ("my old email got hacked last year") is not a
// request to change it, so the planner neither writes nor asks for the new value.

const ctx = makeContext({ services: SEED_SERVICES });
const names = (t: { calls: { name: string }[] }) => t.calls.map((c) => c.name);
const asksForValue = (t: { content: string }) =>
  /should we have on your account|send me the new address/.test(t.content);

const EMAIL = /\be-?mail\b/;
const CHANGE = /\b(?:change|changed|update|switch|new|fix)\b/;

describe('a story is told, not asked for', () => {
  it.each([
    ['funny story my old email got hacked last year, had to switch everything over', 'told'],
    ['long story short my phone got stolen and i had to get a new sim', 'told'],
    ['true story, our address was wrong on every parcel for a month', 'told'],
    ['funny story my email got hacked so can you change it', 'request'],
    ['please update my email', 'request'],
  ])('%s → %s', (text, stance) => {
    expect(stanceOf(text)).toBe(stance);
  });

  it('a new value inside a story is asked about, not written', () => {
    const text = 'funny story, my old email got hacked so now i use ann.new@example.com';
    expect(stanceOfValue(text, 'ann.new@example.com')).toBe('told');
  });

  it.each([
    'funny story my old email got hacked last year, had to switch everything over. anyway you dont do sundays right?',
    'long story short my phone got stolen and i had to get a new sim. do you work saturdays?',
    'my old email got hacked last year, had to switch everything over. anyway what are your hours?',
    'my email got hacked a while ago and i had to change all my passwords, how do i pay an invoice?',
  ])('no write and no question for a value: %s', (text) => {
    const t = plan(ctx, text);
    expect(names(t)).not.toContain('update_customer');
    expect(asksForValue(t)).toBe(false);
  });

  it.each([
    'got a new email, can you change it on my account?',
    'my email is wrong. can you fix it?',
    'please update my phone number',
    'i need to change my email address',
    'i would like to add a mobile number to my account',
  ])('the same words as a request still ask for the value: %s', (text) => {
    expect(asksForValue(plan(ctx, text))).toBe(true);
  });

  it('a change is said of the field, or of "it"', () => {
    expect(changeOf('my old email got hacked, had to switch everything over', EMAIL, CHANGE)).toBe(false);
    expect(changeOf('my email changed', EMAIL, CHANGE)).toBe(true);
    expect(changeOf('my email is wrong. please fix it', EMAIL, CHANGE)).toBe(true);
    expect(changeOf('my email is wrong, update please', EMAIL, CHANGE)).toBe(true);
    expect(changeOf('my email is fine, i switched my bank', EMAIL, CHANGE)).toBe(false);
  });
});
