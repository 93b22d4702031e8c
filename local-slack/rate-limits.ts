// Slack's Web API rate limits (docs.slack.dev/apis/web-api/rate-limits): each method has a tier, counted per
// method per workspace per app (this workspace has one app); chat.postMessage is "special": about one message
// per second per channel, short bursts allowed. Over a limit Slack answers HTTP 429 with Retry-After (seconds).
// Modelled as token buckets: `burst` calls at once, refilled at the tier's rate.

export interface Rate {
  perMinute: number;
  burst: number;
}

export type Tier = 1 | 2 | 3 | 4;

export interface RateLimitOptions {
  /** Milliseconds clock (tests move it by hand). Default Date.now. */
  now?: () => number;
  /** Override a tier's rate or burst. */
  tiers?: Partial<Record<Tier, Rate>>;
  /** chat.postMessage, per channel. */
  postMessagePerChannel?: Rate;
}

/**
 * Slack publishes each tier as "N+ per minute" with bursts tolerated; a bucket of one minute's worth keeps
 * the fake from refusing anything Slack would accept at the published rate.
 */
export const SLACK_TIERS: Record<Tier, Rate> = {
  1: { perMinute: 1, burst: 1 },
  2: { perMinute: 20, burst: 20 },
  3: { perMinute: 50, burst: 50 },
  4: { perMinute: 100, burst: 100 },
};

/**
 * One message a second per channel; Slack does not publish the burst size (reports put it at ~25-30),
 * so this stays at the low end of what has been seen to pass.
 */
export const SLACK_POST_MESSAGE_PER_CHANNEL: Rate = { perMinute: 60, burst: 25 };

/**
 * The tier of each method this workspace implements, from each method's reference page. Special-tier
 * methods without a per-channel rule (auth.test, chat.getPermalink) are generous; Tier 4 stands in for them.
 * chat.postMessage's workspace-wide limit is unpublished and not modelled.
 */
export const METHOD_TIERS: Record<string, Tier | 'post_message'> = {
  'auth.test': 4,
  'chat.postMessage': 'post_message',
  'chat.postEphemeral': 4,
  'chat.update': 3,
  'chat.delete': 3,
  'chat.getPermalink': 4,
  'conversations.history': 3,
  'conversations.replies': 3,
  'conversations.info': 3,
  'conversations.open': 3,
  'users.info': 4,
  'usergroups.users.list': 2,
  'reactions.add': 3,
  'reactions.remove': 2,
  'views.open': 4,
  'views.push': 4,
  'views.update': 4,
  'views.publish': 4,
  'assistant.threads.setStatus': 3,
};

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly tiers: Record<Tier, Rate>;
  private readonly perChannel: Rate;

  constructor(o: RateLimitOptions = {}) {
    this.now = o.now ?? Date.now;
    this.tiers = { ...SLACK_TIERS, ...o.tiers };
    this.perChannel = o.postMessagePerChannel ?? SLACK_POST_MESSAGE_PER_CHANNEL;
  }

  /** Counts one call; undefined when it may go ahead, else Slack's Retry-After in whole seconds. */
  take(method: string, args: Record<string, unknown>): number | undefined {
    const tier = METHOD_TIERS[method];
    if (tier === undefined) return undefined;
    if (tier === 'post_message') {
      const channel = typeof args.channel === 'string' ? args.channel : '';
      return this.takeFrom(`chat.postMessage:${channel}`, this.perChannel);
    }
    return this.takeFrom(method, this.tiers[tier]);
  }

  private takeFrom(key: string, rate: Rate): number | undefined {
    const now = this.now();
    const perMs = rate.perMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: rate.burst, at: now };
    b.tokens = Math.min(rate.burst, b.tokens + (now - b.at) * perMs);
    b.at = now;
    this.buckets.set(key, b);
    // Float refill can land a hair under a whole call exactly on time.
    if (b.tokens >= 1 - 1e-9) {
      b.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000 - 1e-9));
  }
}
