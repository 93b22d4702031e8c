import { createHmac } from 'node:crypto';

export interface SlackSignatureHeaders {
  'X-Slack-Signature': string;
  'X-Slack-Request-Timestamp': string;
}

/** Slack request signing v0: hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` keyed by the signing secret. */
export function signSlackRequest(secret: string, body: string, timestampSec: number): SlackSignatureHeaders {
  const digest = createHmac('sha256', secret).update(`v0:${timestampSec}:${body}`).digest('hex');
  return { 'X-Slack-Signature': `v0=${digest}`, 'X-Slack-Request-Timestamp': String(timestampSec) };
}
