// Types and argument helpers shared by the Web API method implementations.
import type { SlackError } from './block-kit.js';
import type { RateLimiter } from './rate-limits.js';
import type { LocalSlackLogger } from './types.js';
import type { Workspace } from './workspace.js';

export type ApiArgs = Record<string, unknown>;
export type ApiOk = { ok: true } & Record<string, unknown>;
export type ApiResult = ApiOk | SlackError;

export interface ApiContext {
  ws: Workspace;
  url: string;
  triggerTtlMs: number;
  logger: LocalSlackLogger;
  /** Slack's rate limits; absent: unlimited. */
  limiter?: RateLimiter;
}

export type Method = (args: ApiArgs, ctx: ApiContext) => ApiResult;

/** A non-empty string argument, or undefined. */
export const str = (args: ApiArgs, key: string): string | undefined =>
  typeof args[key] === 'string' && args[key] !== '' ? (args[key] as string) : undefined;

export const TS_PATTERN = /^\d{10}\.\d{6}$/;
