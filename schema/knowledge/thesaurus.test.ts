import { describe, expect, it } from 'vitest';
import { closedDays } from '../business/calendar.js';
import { expansions, frameWords, idiomMeanings, idiomWords, matchedPhrases, translatedWords } from './thesaurus.js';

describe('thesaurus: how a question is read', () => {
  it('knows every closed day of the calendar by each of its names', () => {
    for (const day of closedDays(2026))
      for (const name of day.names) expect(expansions(`are you open on ${name}?`)).toContain('holiday');
    expect(expansions('our cleaning lands on the 4th of july')).toContain('holiday');
  });

  it('reads an age written as "65+" or "over 70" as the senior discount', () => {
    for (const q of ['I get the 65+ discount', 'my mum is over 70', "I'm 68", '72 years old']) {
      expect(expansions(q)).toContain('senior');
    }
    expect(expansions('the 65 bus stops outside')).not.toContain('senior');
  });

  it('sets aside the words that only frame a question', () => {
    expect([...frameWords('what happens if it snows, is that a problem?')].sort()).toEqual(
      ['a', 'happens', 'is', 'problem', 'that', 'what'].sort(),
    );
    expect(frameWords('how far ahead can I book').size).toBe(0);
  });

  it('matches the longest phrase first and uses each word once', () => {
    expect(matchedPhrases('can the cleanings be put on hold?').map((m) => m.key)).toEqual(['put on hold']);
  });

  it('marks the words the help centre uses in another sense, not narrower ones', () => {
    expect(translatedWords('will the cleaner wait?').get('cleaner')).toEqual(['technician']);
    expect(translatedWords('are you open on thanksgiving?').has('thanksgiving')).toBe(false);
    expect([...translatedWords('are you open on thanksgiving?').keys()]).toEqual(['open']);
  });

  it('reads idioms by their one-word meaning, never the way a question is put', () => {
    expect(idiomMeanings('what if i have to bail on a cleaning?')).toEqual(['cancel']);
    expect(idiomMeanings('he was an hour late, do i get anything for that')).toEqual(['credit']);
    expect(idiomMeanings('can the cleanings be put on hold that long?')).toEqual(['pause']);
    expect(idiomMeanings('how much is it?')).toEqual([]);
    expect(idiomMeanings('my tap is dripping')).toEqual([]);
  });

  it('knows a date to meet and money that comes off, but not a visit morning as a late change', () => {
    expect(expansions('my lease ends in five weeks')).toContain('fixed deadline');
    expect(expansions('does my credit come off by itself?')).toContain('used');
    expect(expansions('what if i have to cancel at the last minute?')).toContain('late within 24 hours');
    expect(expansions('what if it snows on the morning of my cleaning?')).not.toContain('late within 24 hours');
  });

  it('names the words of an idiom that mean nothing on their own', () => {
    expect([...idiomWords('the movers are running behind')].sort()).toEqual(['behind', 'running']);
    expect([...idiomWords('is there a discount if I book every week?')]).toEqual([]);
  });
});
