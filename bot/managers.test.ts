import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import { ManagerDirectory } from './managers.js';

function fakeClient(members: () => string[]) {
  let calls = 0;
  const client = {
    usergroups: {
      users: {
        list: async () => {
          calls++;
          return { ok: true, users: members() };
        },
      },
    },
  } as unknown as WebClient;
  return { client, calls: () => calls };
}

describe('managers', () => {
  it('are the configured ids and the members of the group, read once per TTL', async () => {
    const f = fakeClient(() => ['U0GROUP1']);
    const d = new ManagerDirectory({
      ids: ['U0ID1'],
      groupId: 'S0MGRS',
      client: () => f.client,
      logger: silentLogger,
      ttlMs: 60_000,
    });
    expect(await d.isManager('U0ID1')).toBe(true);
    expect(await d.isManager('U0GROUP1')).toBe(true);
    expect(await d.isManager('U0OTHER')).toBe(false);
    expect(await d.isManager(undefined)).toBe(false);
    expect(f.calls()).toBe(1);
    expect(await d.list()).toEqual(['U0ID1', 'U0GROUP1']);
  });

  it('keeps the last known group when Slack cannot be asked, and fails closed with none', async () => {
    let fail = false;
    const client = {
      usergroups: {
        users: { list: async () => (fail ? Promise.reject(new Error('down')) : { ok: true, users: ['U0GROUP1'] }) },
      },
    } as unknown as WebClient;
    const d = new ManagerDirectory({
      ids: [],
      groupId: 'S0MGRS',
      client: () => client,
      logger: silentLogger,
      ttlMs: 0,
    });
    expect(await d.isManager('U0GROUP1')).toBe(true);
    fail = true;
    expect(await d.isManager('U0GROUP1')).toBe(true);
    const fresh = new ManagerDirectory({ ids: [], groupId: 'S0MGRS', client: () => client, logger: silentLogger });
    expect(await fresh.isManager('U0GROUP1')).toBe(false);
  });
});
