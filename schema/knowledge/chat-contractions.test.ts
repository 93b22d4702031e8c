import { describe, expect, it } from 'vitest';
import { readContractions } from './chat-contractions.js';

describe('readContractions', () => {
  it('reads "ill <verb>" and "I\'ll" as "i will"', () => {
    expect(readContractions('ill be at work during the clean')).toBe('i will be at work during the clean');
    expect(readContractions("ok I'll just call you")).toBe('ok i will just call you');
    expect(readContractions('ill prob be out, can u use the lockbox')).toBe(
      'i will prob be out, can u use the lockbox',
    );
  });

  it('keeps "ill" meaning sick', () => {
    expect(readContractions('my son is ill with the flu')).toBe('my son is ill with the flu');
    expect(readContractions('if someone is ill at home')).toBe('if someone is ill at home');
    expect(readContractions('i feel ill')).toBe('i feel ill');
  });
});
