import { describe, expect, it } from 'vitest';
import { lostWhileStopping } from './pg-pool.js';
import { markStopping } from './shutdown.js';

// Ctrl-C reaches the embedded Postgres with the app: a card claim in flight then fails with 57P01,
// which scripts/stop.test.ts saw logged as an error on a busy machine.
describe('a connection lost while stopping', () => {
  it('is a fault while running and expected once the process stops; other errors stay faults', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    expect(lostWhileStopping(terminated)).toBe(false);
    markStopping();
    expect(lostWhileStopping(terminated)).toBe(true);
    expect(lostWhileStopping(new Error('syntax error at or near "SELEC"'))).toBe(false);
  });
});
