// How this app's Web API client retries. A 429 is Slack asking us to wait Retry-After and try again: the
// client does that itself (rejectRateLimitedCalls: false) but counts each wait as one of its retries, so a
// policy of "no retries" would drop a message on its first 429.
import { webApi } from '@slack/bolt';

type RetryOptions = NonNullable<ConstructorParameters<typeof webApi.WebClient>[1]>['retryConfig'];

/** The client signals "retry after the rate-limit wait" with this message (WebClient.makeRequest). */
const RATE_LIMIT_RETRY = /^A rate limit was exceeded/;

export function isRateLimitRetry(err: unknown): boolean {
  const e = err as { code?: string; original?: { message?: string } };
  return e.code === webApi.ErrorCode.RequestError && RATE_LIMIT_RETRY.test(e.original?.message ?? '');
}

/**
 * Local mode: the workspace is on this machine, so a failure other than a rate limit is a bug to see at
 * once, not a network blip to retry; rate limits are waited out (Retry-After is the whole wait, no backoff
 * on top), as often as it takes a burst to drain. Elsewhere: the client's default policy, which already
 * waits out Retry-After and retries network failures with backoff for about half an hour.
 */
export function webApiRetryConfig(mode: 'socket' | 'http' | 'local'): RetryOptions | undefined {
  if (mode !== 'local') return undefined;
  return {
    retries: 500,
    factor: 1,
    minTimeout: 0,
    maxTimeout: 0,
    // p-retry stops at an error thrown here: anything but a rate-limit wait ends the call.
    onFailedAttempt: (err: unknown) => {
      if (!isRateLimitRetry(err)) throw err;
    },
  } as RetryOptions;
}
