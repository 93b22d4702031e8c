import type { WebClient } from '@slack/web-api';
import type { Logger } from '../core/logger.js';

/**
 * Who may decide approvals: the configured user ids and/or the members of one user group.
 * Group membership comes from `usergroups.users.list`, cached briefly (per process; a miss just
 * asks Slack again, so nothing here is needed to handle a click on any worker). If Slack can't
 * be asked, the last known list is used; with none, nobody is a manager (fail closed).
 */
export class ManagerDirectory {
  private cache?: { at: number; users: Set<string> };
  private inflight?: Promise<Set<string>>;

  constructor(
    private readonly opts: {
      ids: readonly string[];
      groupId?: string;
      client: () => WebClient;
      logger: Logger;
      ttlMs?: number;
    },
  ) {}

  get configured(): boolean {
    return this.opts.ids.length > 0 || Boolean(this.opts.groupId);
  }

  async isManager(userId: string | undefined): Promise<boolean> {
    if (!userId) return false;
    if (this.opts.ids.includes(userId)) return true;
    if (!this.opts.groupId) return false;
    return (await this.groupMembers()).has(userId);
  }

  /** Every manager we know of (ids first, then group members). */
  async list(): Promise<string[]> {
    const group = this.opts.groupId ? [...(await this.groupMembers())] : [];
    return [...new Set([...this.opts.ids, ...group])];
  }

  private async groupMembers(): Promise<Set<string>> {
    const ttl = this.opts.ttlMs ?? 60_000;
    if (this.cache && Date.now() - this.cache.at < ttl) return this.cache.users;
    this.inflight ??= this.fetch().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async fetch(): Promise<Set<string>> {
    try {
      const res = await this.opts.client().usergroups.users.list({ usergroup: this.opts.groupId! });
      const users = new Set(res.users ?? []);
      this.cache = { at: Date.now(), users };
      return users;
    } catch (err) {
      this.opts.logger.error({ err, usergroup: this.opts.groupId }, 'could not read the managers user group');
      return this.cache?.users ?? new Set();
    }
  }
}
