import { describe, expect, it } from 'vitest';
import { ConfigError, testConfig } from './config.js';

describe('BUSINESS_TIMEZONE', () => {
  it('takes a canonical IANA name, an alias and UTC, as a formatter would', () => {
    for (const zone of ['America/New_York', 'Europe/Berlin', 'US/Eastern', 'UTC', 'Etc/GMT+5']) {
      expect(testConfig({ BUSINESS_TIMEZONE: zone }).BUSINESS_TIMEZONE).toBe(zone);
    }
  });

  it('refuses a name no formatter takes', () => {
    expect(() => testConfig({ BUSINESS_TIMEZONE: 'Mars/Olympus_Mons' })).toThrow(ConfigError);
    expect(() => testConfig({ BUSINESS_TIMEZONE: 'EST5EDT;' })).toThrow(ConfigError);
  });
});
