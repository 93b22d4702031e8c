import { describe, expect, it } from 'vitest';
import { approvalExpiry, ConfigError, testConfig } from './config.js';

describe('approval expiry policy from the environment', () => {
  it('defaults to the end of the next business day', () => {
    expect(approvalExpiry(testConfig())).toEqual({ kind: 'next_business_day_end' });
    // An empty value (a copied .env.example) is unset, not zero minutes.
    expect(approvalExpiry(testConfig({ APPROVAL_TTL_MINUTES: '' }))).toEqual({ kind: 'next_business_day_end' });
  });

  it('an explicit APPROVAL_TTL_MINUTES keeps its wall-clock meaning', () => {
    expect(approvalExpiry(testConfig({ APPROVAL_TTL_MINUTES: '240' }))).toEqual({ kind: 'minutes', minutes: 240 });
  });

  it('APPROVAL_BUSINESS_HOURS counts opening hours', () => {
    expect(approvalExpiry(testConfig({ APPROVAL_BUSINESS_HOURS: '8' }))).toEqual({ kind: 'business_hours', hours: 8 });
    expect(
      approvalExpiry(
        testConfig({ APPROVAL_EXPIRY: 'business_hours', APPROVAL_BUSINESS_HOURS: '4', APPROVAL_TTL_MINUTES: '5' }),
      ),
    ).toEqual({ kind: 'business_hours', hours: 4 });
  });

  it('refuses settings it would have to guess at, naming the variable', () => {
    const problem = (env: Record<string, string>) => {
      try {
        testConfig(env);
      } catch (err) {
        return err instanceof ConfigError ? err.problems : err;
      }
      return undefined;
    };
    expect(problem({ APPROVAL_TTL_MINUTES: '5', APPROVAL_BUSINESS_HOURS: '8' })).toEqual([
      expect.objectContaining({ variable: 'APPROVAL_EXPIRY' }),
    ]);
    expect(problem({ APPROVAL_EXPIRY: 'minutes' })).toEqual([
      expect.objectContaining({ variable: 'APPROVAL_TTL_MINUTES' }),
    ]);
    expect(problem({ APPROVAL_EXPIRY: 'business_hours' })).toEqual([
      expect.objectContaining({ variable: 'APPROVAL_BUSINESS_HOURS' }),
    ]);
    expect(problem({ APPROVAL_EXPIRY: 'forever' })).toEqual([expect.objectContaining({ variable: 'APPROVAL_EXPIRY' })]);
    expect(problem({ APPROVAL_BUSINESS_HOURS: '0' })).toEqual([
      expect.objectContaining({ variable: 'APPROVAL_BUSINESS_HOURS' }),
    ]);
  });
});
