import { describe, expect, it } from 'vitest';
import { extractAddress } from './analysis/entities.js';

// The city of an address is the town, as the records write it; a neighbourhood named instead is a part of its town.
describe('a neighbourhood named where the city goes', () => {
  it.each([
    ['address is 58 lantern row, cedar hill MH 1036', 'Maple Harbor'],
    ['we moved to 12 gull crescent apt 5, lighthouse point MH 1024', 'Maple Harbor'],
    ['new address: 9 Birch Lane, Fernbrook MH 2105', 'Fernbrook'],
  ])('%s → %s', (text, city) => {
    const found = extractAddress(text);
    expect(found?.ok && found.address.city).toBe(city);
  });
});
