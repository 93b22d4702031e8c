import type { Clock } from '../core/clock.js';
import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import type { AgentService } from '../agent/service.js';
import type { CardPublisher } from './cards.js';
import type { ManagerDirectory } from './managers.js';

/** Everything a listener needs. Nothing here holds per-conversation or per-approval state. */
export interface BotDeps {
  pool: Pool;
  agent: AgentService;
  logger: Logger;
  clock: Clock;
  timeZone: string;
  managers: ManagerDirectory;
  cards: CardPublisher;
  channels: {
    /** Where customers write; unset: any public channel the bot is in except the managers one. */
    support?: string;
    /** Where approval cards go. */
    managers: string;
    /** Channels private to one customer (SLACK_PRIVATE_CHANNELS): personal replies stay in their threads. */
    private?: readonly string[];
  };
  /** Delay before the "working on it" reaction on a customer's message (slow turns only). */
  cueDelayMs: number;
  /** `users_select` in real Slack; a text input where the workspace has no user picker (local). */
  userPicker: 'users_select' | 'text';
}
