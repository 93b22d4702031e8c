import { describe, expect, it } from 'vitest';
import { triage } from './entities.js';

describe('a fault that began with our visit is a complaint about it', () => {
  it.each([
    'please open a ticket: the shower drain is slow since your visit',
    'can you log this, the kitchen floor has been sticky ever since the cleaners came',
    'the grout by the tub has been crumbling since the repair last week',
    "the living room carpet is all patchy after yesterday's cleaning, open a ticket pls",
  ])('%s', (text) => {
    expect(triage(text)).toMatchObject({ category: 'complaint', label: 'Complaint' });
  });

  it.each([
    // "since" as a reason, and a visit still to come: nothing of a fault.
    'since your visit is tomorrow, can you open a ticket about where to park',
    'please open a ticket to move my appointment, since the visit clashes with work',
  ])('%s', (text) => {
    expect(triage(text).category).toBe('scheduling');
  });
});
