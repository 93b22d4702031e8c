import { randomBytes, randomUUID } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomAlnum(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

// Slack ts values are unique per channel and sort chronologically; apps use them as message ids,
// so they must never repeat even when two messages land in the same microsecond.
let lastMicros = 0;
export function nextTs(): string {
  let micros = Date.now() * 1000;
  if (micros <= lastMicros) micros = lastMicros + 1;
  lastMicros = micros;
  return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
}

export const newEventId = (): string => `Ev${randomAlnum(10)}`;
export const newViewId = (): string => `V${randomAlnum(10)}`;
export const newViewHash = (): string => `${Math.floor(Date.now() / 1000)}.${randomBytes(4).toString('hex')}`;
export const newTriggerId = (): string =>
  `${Date.now()}.${1000000 + Math.floor(Math.random() * 9000000)}.${randomBytes(16).toString('hex')}`;
export const newResponseId = (): string => randomBytes(12).toString('hex');
export const newClientMsgId = (): string => randomUUID();
/** Slack fills missing block_id/action_id with short random strings. */
export const generatedId = (): string => randomBytes(3).toString('base64url');
