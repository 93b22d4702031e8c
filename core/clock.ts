import type { Config } from './config.js';

/** All business time goes through a Clock so that evals and tests can pin "now". */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(at: Date | string): Clock {
  const t = new Date(at).getTime();
  return { now: () => new Date(t) };
}

/** A clock tests can move forward (expiry, sweeper). */
export class ManualClock implements Clock {
  private t: number;
  constructor(at: Date | string) {
    this.t = new Date(at).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(at: Date | string): void {
    this.t = new Date(at).getTime();
  }
}

export const clockFromConfig = (c: Pick<Config, 'FIXED_NOW'>): Clock =>
  c.FIXED_NOW ? fixedClock(c.FIXED_NOW) : systemClock;
