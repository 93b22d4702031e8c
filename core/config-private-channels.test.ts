import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('SLACK_PRIVATE_CHANNELS', () => {
  it('is a list of channel ids, empty by default (every channel but DMs is shared)', () => {
    expect(loadConfig({}).SLACK_PRIVATE_CHANNELS).toEqual([]);
    expect(loadConfig({ SLACK_PRIVATE_CHANNELS: ' C0CLIENT1, G0CLIENT2 ,' }).SLACK_PRIVATE_CHANNELS).toEqual([
      'C0CLIENT1',
      'G0CLIENT2',
    ]);
  });

  it('refuses what is not a channel id (a #name would silently match nothing)', () => {
    expect(() => loadConfig({ SLACK_PRIVATE_CHANNELS: '#acme-support' })).toThrow(ConfigError);
    expect(() => loadConfig({ SLACK_PRIVATE_CHANNELS: 'C0CLIENT1,acme' })).toThrow(/SLACK_PRIVATE_CHANNELS/);
  });
});
