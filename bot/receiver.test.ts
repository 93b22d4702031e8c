// The signature rule at its edges, with a pinned "now" (over HTTP a second can tick mid-test).
import { describe, expect, it } from 'vitest';
import { signSlackRequest } from '../local-slack/index.js';
import { checkSlackSignature, SIGNATURE_TOLERANCE_SEC } from './receiver.js';

const SECRET = 'test-signing-secret';
const NOW_SEC = 1_800_000_000;
const body = '{"type":"event_callback","event_id":"Ev1"}';

function check(signedAtSec: number, opts: { secret?: string; body?: string; mangle?: (sig: string) => string } = {}) {
  const h = signSlackRequest(opts.secret ?? SECRET, body, signedAtSec);
  return checkSlackSignature({
    signingSecret: SECRET,
    rawBody: Buffer.from(opts.body ?? body),
    timestamp: h['X-Slack-Request-Timestamp'],
    signature: (opts.mangle ?? ((s) => s))(h['X-Slack-Signature']),
    nowMs: NOW_SEC * 1000 + 999,
  });
}

describe('checkSlackSignature', () => {
  it('accepts up to 5 minutes off either way, and refuses one second more', () => {
    expect(SIGNATURE_TOLERANCE_SEC).toBe(300);
    for (const off of [0, 300, -300, 240, -240]) expect(check(NOW_SEC + off), `offset ${off}`).toEqual({ ok: true });
    for (const off of [301, -301, 600, -600])
      expect(check(NOW_SEC + off), `offset ${off}`).toEqual({ ok: false, reason: 'timestamp_out_of_range' });
  });

  it('refuses another secret, another body, and malformed signatures', () => {
    expect(check(NOW_SEC, { secret: 'other' })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(check(NOW_SEC, { body: body.replace('Ev1', 'Ev2') })).toEqual({ ok: false, reason: 'bad_signature' });
    for (const mangle of [
      (s: string) => s.slice(0, -2),
      (s: string) => s.replace('v0=', 'v1='),
      (s: string) => s.toUpperCase(),
      (s: string) => `${s}00`,
    ]) {
      expect(check(NOW_SEC, { mangle }).ok).toBe(false);
    }
  });

  it('refuses missing, repeated or non-numeric timestamps', () => {
    const sig = signSlackRequest(SECRET, body, NOW_SEC)['X-Slack-Signature'];
    const base = { signingSecret: SECRET, rawBody: body, signature: sig, nowMs: NOW_SEC * 1000 };
    expect(checkSlackSignature({ ...base, timestamp: undefined })).toEqual({ ok: false, reason: 'missing_headers' });
    expect(checkSlackSignature({ ...base, timestamp: [String(NOW_SEC), String(NOW_SEC)] })).toEqual({
      ok: false,
      reason: 'missing_headers',
    });
    expect(checkSlackSignature({ ...base, timestamp: `${NOW_SEC}.5` })).toEqual({ ok: false, reason: 'bad_timestamp' });
    expect(checkSlackSignature({ ...base, timestamp: '-1' })).toEqual({ ok: false, reason: 'bad_timestamp' });
    expect(checkSlackSignature({ ...base, timestamp: String(NOW_SEC) })).toEqual({ ok: true });
  });
});
