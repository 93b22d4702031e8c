import { describe, expect, it } from 'vitest';
import { lostWhileStoppingSoon } from './pg-pool.js';
import { markStopping } from './shutdown.js';

// Ctrl-C reaches the embedded Postgres and this process at the same instant, and Postgres can end
// its connections before this process's own SIGINT handler has run: scripts/stop.test.ts saw a card
// claim's 57P01 logged as an error on a clean clone. The answer waits a moment for that handler.
describe('a connection lost just before this process starts to stop', () => {
  const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
  });

  it('is a fault when nothing stops, after the wait', async () => {
    expect(await lostWhileStoppingSoon(terminated, 30)).toBe(false);
  });

  it('is expected when the process starts to stop within the wait; other errors stay faults', async () => {
    setTimeout(markStopping, 10);
    expect(await lostWhileStoppingSoon(terminated, 200)).toBe(true);
    expect(await lostWhileStoppingSoon(new Error('syntax error at or near "SELEC"'), 10)).toBe(false);
  });
});
