import { describe, expect, it } from 'vitest';
import { SEED_SERVICES } from '../testing.js';
import { matchServices } from './services.js';

const ids = (text: string) => matchServices(text, SEED_SERVICES).matches.map((s) => s.id);

describe('an alias with a gap ("hang ... frames")', () => {
  it('frames to hang are the handyman, however many words come between', () => {
    for (const text of [
      'need someone to hang a bunch of frames, saturday the 12th at 11?',
      'could you hang frames in the hallway',
      'hanging some family photo frames this weekend',
      'want to put up six frames on the stairs',
      'can someone get my frames up on the wall',
      'a gallery wall of framed prints',
    ]) {
      expect(ids(text), text).toEqual(['svc_handyman_hour']);
    }
  });

  it('frames that are cleaned are not a handyman job', () => {
    expect(ids('can the cleaner wipe the door frames')).not.toContain('svc_handyman_hour');
    expect(ids('the window frames are dusty, can you clean them')).not.toContain('svc_handyman_hour');
    expect(ids('does the deep clean cover door frames?')).toEqual(['svc_deep_clean']);
  });

  it('the gap is short: words far apart are not the alias', () => {
    expect(ids('hang on, I need to check whether the cleaners will do the door and window frames')).not.toContain(
      'svc_handyman_hour',
    );
  });
});
