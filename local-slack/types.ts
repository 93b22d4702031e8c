// Public shapes of the local Slack stand-in. Wire shapes follow Slack's own field names (snake_case).

import type { RateLimitOptions } from './rate-limits.js';

export interface LocalSlackUser {
  id: string;
  name: string;
  real_name: string;
  is_bot?: boolean;
  /** Who they are to the app (e.g. manager, customer, unlinked guest): shown in the console only, never sent to it. */
  role?: string;
}

export interface LocalSlackLogger {
  info(...a: unknown[]): void;
  warn(...a: unknown[]): void;
  error(...a: unknown[]): void;
}

/** Slack's real timings are the defaults; tests shrink them to stay fast. */
export interface LocalSlackTiming {
  /** How long Slack waits for a 2xx before it counts a delivery as failed (Slack: 3 s). */
  ackTimeoutMs?: number;
  /** Delay before each automatic event retry (Slack: ~immediately, 1 min, 5 min). Default [0, 1000, 5000]. */
  retryDelaysMs?: number[];
  /** Lifetime of a trigger_id (Slack: 3 s). */
  triggerTtlMs?: number;
}

export interface LocalSlackOptions {
  port?: number;
  signingSecret: string;
  botToken: string;
  botUserId: string;
  botId: string;
  teamId?: string;
  appId?: string;
  eventsUrls: string[];
  users: LocalSlackUser[];
  channels: { id: string; name: string }[];
  userGroups?: { id: string; handle: string; users: string[] }[];
  retryOnFailure?: boolean;
  /**
   * Also send `app_mention` events when a user message contains <@botUserId> (needs the app_mention subscription in
   * real Slack).
   */
  appMentionEvents?: boolean;
  timing?: LocalSlackTiming;
  /** Slack's Web API rate limits (default: Slack's tiers and chat.postMessage's per-channel limit); false: none. */
  rateLimits?: RateLimitOptions | false;
  logger?: LocalSlackLogger;
}

export interface Reaction {
  name: string;
  users: string[];
  count: number;
}

export interface StoredMessage {
  type: 'message';
  channel: string;
  ts: string;
  team: string;
  text: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  subtype?: string;
  username?: string;
  thread_ts?: string;
  parent_user_id?: string;
  blocks?: Block[];
  attachments?: unknown[];
  edited?: { user: string; ts: string };
  reactions?: Reaction[];
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  /** Set on ephemeral messages: the only user who can see it. */
  ephemeral_for?: string;
}

export type Block = Record<string, unknown> & { type: string; block_id?: string };

export interface ViewStateValue {
  type: string;
  value?: string | null;
  selected_option?: { text: { type: 'plain_text'; text: string; emoji?: boolean }; value: string } | null;
  selected_date?: string | null;
  selected_time?: string | null;
  selected_user?: string | null;
  selected_options?: CheckboxOption[];
}

/** A checkbox option as submitted: unlike a select's, its text may be mrkdwn. */
export interface CheckboxOption {
  text: { type: 'plain_text' | 'mrkdwn'; text: string; emoji?: boolean; verbatim?: boolean };
  value: string;
  description?: { type: 'plain_text' | 'mrkdwn'; text: string };
}

export type ViewStateValues = Record<string, Record<string, ViewStateValue>>;

export interface StoredView {
  id: string;
  team_id: string;
  type: 'modal' | 'home';
  title?: { type: 'plain_text'; text: string; emoji?: boolean };
  submit?: { type: 'plain_text'; text: string; emoji?: boolean } | null;
  close?: { type: 'plain_text'; text: string; emoji?: boolean } | null;
  blocks: Block[];
  private_metadata: string;
  callback_id: string;
  external_id: string;
  state: { values: ViewStateValues };
  hash: string;
  clear_on_close: boolean;
  notify_on_close: boolean;
  previous_view_id: string | null;
  root_view_id: string;
  app_id: string;
  app_installed_team_id: string;
  bot_id: string;
  /** Local bookkeeping, never sent to the app. */
  user_id: string;
  /** Inline errors from the last `response_action: errors`, keyed by block_id. */
  errors?: Record<string, string>;
  /** Banner Slack shows when the app failed to answer a submission. */
  failure?: string;
}

export interface ApiCallRecord {
  method: string;
  args: unknown;
  ok: boolean;
  error?: string;
}

export interface DeliveryRecord {
  kind: 'event' | 'interaction';
  /** event_id for events, payload type for interactions. */
  id: string;
  url: string;
  via: number;
  retryNum?: number;
  retryReason?: string;
  /** 0 when the endpoint gave no answer in time or could not be reached. */
  status: number;
  body: string;
  error?: string;
}

export interface DeliveryOpts {
  /** Index into eventsUrls; pins the worker instead of round-robin. */
  via?: number;
}

export interface ForgeOpts {
  /** Sign with this secret instead of the real one (forgery tests). */
  signingSecret?: string;
  /** Sign with this timestamp instead of now (stale-request tests). */
  timestampSec?: number;
}

export interface PostResult {
  ts: string;
  event_id: string;
  status: number;
}

export type SubmitOutcome = 'closed' | 'cleared' | 'updated' | 'pushed' | 'errors' | 'client_errors' | 'failed';

export interface SubmitResult {
  status: number;
  response: unknown;
  outcome: SubmitOutcome;
}

/** How a person's message is posted: in a thread, also to the channel, with attachments. */
export interface PostOpts {
  thread_ts?: string;
  via?: number;
  /** A thread reply also sent to the channel ("Also send to #channel"): subtype thread_broadcast. */
  broadcast?: boolean;
  /** Attached files: subtype file_share, with Slack's `files` list. */
  files?: { name: string; mimetype?: string }[];
}

export interface LocalSlack {
  url: string;
  apiUrl: string;
  close(): Promise<void>;
  postAsUser(userId: string, channel: string, text: string, opts?: PostOpts & ForgeOpts): Promise<PostResult>;
  sendDirectMessage(userId: string, text: string, opts?: DeliveryOpts): Promise<PostResult & { channel: string }>;
  postBotLikeMessage(
    channel: string,
    text: string,
    opts?: { botId?: string; username?: string; thread_ts?: string; via?: number },
  ): Promise<PostResult>;
  editMessage(userId: string, channel: string, ts: string, text: string, opts?: DeliveryOpts): Promise<PostResult>;
  redeliver(eventId: string, opts?: { retryNum?: number; reason?: string; via?: number }): Promise<{ status: number }>;
  click(
    userId: string,
    channel: string,
    messageTs: string,
    actionId: string,
    opts?: { value?: string; blockId?: string; via?: number },
  ): Promise<{ status: number; body: string }>;
  submitView(
    userId: string,
    viewId: string,
    values: Record<string, Record<string, unknown>>,
    opts?: DeliveryOpts,
  ): Promise<SubmitResult>;
  closeView(userId: string, viewId: string, opts?: DeliveryOpts): Promise<{ status: number }>;
  openHome(userId: string, opts?: DeliveryOpts): Promise<{ status: number; event_id: string }>;
  messages(channel: string, opts?: { thread_ts?: string }): StoredMessage[];
  ephemerals(userId: string): StoredMessage[];
  openViews(userId: string): StoredView[];
  homeView(userId: string): StoredView | undefined;
  threadStatus(channel: string, threadTs: string): string | undefined;
  apiCalls(): ApiCallRecord[];
  deliveries(): DeliveryRecord[];
  waitFor<T>(fn: () => T | undefined | false | null, timeoutMs?: number): Promise<T>;
}
