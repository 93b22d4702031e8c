import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../core/clock.js';
import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import { sendSmtp, SmtpError } from './smtp.js';
import { BUSINESS } from '../schema/business/profile.js';

/**
 * Delivers what send_email queued. send_email only INSERTs into email_outbox inside the approval's
 * transaction (so an approved email is recorded exactly once); this loop, on any number of
 * processes, claims due rows with FOR UPDATE SKIP LOCKED, delivers them and records the outcome.
 *
 * Delivery is at-least-once: a process that dies between handing a message to the SMTP server and
 * marking it sent leaves the row `sending`; after `leaseMs` another dispatcher takes it over.
 * Retries back off exponentially (backoffMs × 2^(attempt-1)) up to `maxAttempts`, then `failed`.
 * All times come from the Clock (like send_email's `next_attempt_at`), so a frozen clock
 * (FIXED_NOW) delivers new mail but waits forever before a retry.
 */

export interface OutgoingEmail {
  id: string;
  from: string;
  to: string;
  subject: string;
  body: string;
  attempt: number;
}

/** Hands one message to the outside world; throws to ask for a retry. */
export type EmailTransport = (email: OutgoingEmail) => Promise<void>;

export interface EmailDispatcherOptions {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  /** smtp:// or smtps:// URL; without it, messages go to the local delivery log. */
  smtpUrl?: string;
  /** Folder of the local delivery log (`outbox.log`). Default `.data`. */
  dataDir?: string;
  from?: string;
  /** Milliseconds between passes; 0 = no timer (call `deliverDue()` yourself). */
  intervalMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  backoffMs?: number;
  leaseMs?: number;
  /** Replace the delivery (tests). */
  transport?: EmailTransport;
}

export interface DeliveryReport {
  sent: string[];
  retrying: string[];
  failed: string[];
}

export interface EmailDispatcher {
  /** One pass: claim due messages, deliver them, record the outcome. */
  deliverDue(): Promise<DeliveryReport>;
  /** Stop the timer and wait for a pass in progress. */
  stop(): Promise<void>;
  readonly transportName: 'smtp' | 'log' | 'custom';
}

export const DEFAULT_FROM = BUSINESS.emailFrom;

/** The default transport: one JSON line per message in `<dataDir>/outbox.log`. */
export function deliveryLogTransport(dataDir: string, clock: Clock, logger: Logger): EmailTransport {
  const file = path.resolve(dataDir, 'outbox.log');
  return async (email) => {
    await mkdir(path.dirname(file), { recursive: true });
    const line = {
      at: clock.now().toISOString(),
      id: email.id,
      from: email.from,
      to: email.to,
      subject: email.subject,
      body: email.body,
    };
    await appendFile(file, `${JSON.stringify(line)}\n`, 'utf8');
    logger.info(
      { email_id: email.id, to: email.to, subject: email.subject, file },
      'email written to the local delivery log (no SMTP_URL)',
    );
  };
}

export function smtpTransport(smtpUrl: string, clock: Clock): EmailTransport {
  return async (email) => {
    await sendSmtp(smtpUrl, {
      from: email.from,
      to: email.to,
      subject: email.subject,
      text: email.body,
      messageId: email.id,
      date: clock.now(),
    });
  };
}

export function startEmailDispatcher(opts: EmailDispatcherOptions): EmailDispatcher {
  const { pool, clock } = opts;
  const logger = opts.logger.child({ component: 'email-dispatcher' });
  const from = opts.from ?? DEFAULT_FROM;
  const batchSize = opts.batchSize ?? 20;
  const maxAttempts = opts.maxAttempts ?? 5;
  const backoffMs = opts.backoffMs ?? 30_000;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const transportName = opts.transport ? 'custom' : opts.smtpUrl ? 'smtp' : 'log';
  const transport =
    opts.transport ??
    (opts.smtpUrl ? smtpTransport(opts.smtpUrl, clock) : deliveryLogTransport(opts.dataDir ?? '.data', clock, logger));

  async function deliverDue(): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: [], retrying: [], failed: [] };
    const now = clock.now();
    // Claim: queued and due, or `sending` whose lease ran out (its dispatcher died). The lease is
    // next_attempt_at itself, so one index serves both.
    const claimed = await pool.query<{
      id: string;
      to_address: string;
      subject: string;
      body: string;
      attempts: number;
    }>(
      `UPDATE email_outbox SET status = 'sending', attempts = attempts + 1, next_attempt_at = $2
       WHERE id IN (
         SELECT id FROM email_outbox
         WHERE status IN ('queued', 'sending') AND next_attempt_at <= $1
         ORDER BY next_attempt_at, id
         LIMIT $3
         FOR UPDATE SKIP LOCKED
       )
       RETURNING id, to_address, subject, body, attempts`,
      [now, new Date(now.getTime() + leaseMs), batchSize],
    );
    for (const row of claimed.rows.sort((a, b) => a.id.localeCompare(b.id))) {
      const log = logger.child({ email_id: row.id, attempt: row.attempts });
      try {
        await transport({
          id: row.id,
          from,
          to: row.to_address,
          subject: row.subject,
          body: row.body,
          attempt: row.attempts,
        });
        await pool.query(
          `UPDATE email_outbox SET status = 'sent', sent_at = $2, last_error = NULL
           WHERE id = $1 AND status = 'sending'`,
          [row.id, clock.now()],
        );
        report.sent.push(row.id);
        log.info({ to: row.to_address }, 'email delivered');
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const permanent = err instanceof SmtpError && err.permanent;
        if (permanent || row.attempts >= maxAttempts) {
          await pool.query(
            `UPDATE email_outbox SET status = 'failed', last_error = $2 WHERE id = $1 AND status = 'sending'`,
            [row.id, message.slice(0, 2000)],
          );
          report.failed.push(row.id);
          log.error({ err: message, permanent }, 'email delivery failed for good');
        } else {
          const retryAt = new Date(clock.now().getTime() + backoffMs * 2 ** (row.attempts - 1));
          await pool.query(
            `UPDATE email_outbox SET status = 'queued', next_attempt_at = $2, last_error = $3
             WHERE id = $1 AND status = 'sending'`,
            [row.id, retryAt, message.slice(0, 2000)],
          );
          report.retrying.push(row.id);
          log.warn({ err: message, retry_at: retryAt.toISOString() }, 'email delivery failed; will retry');
        }
      }
    }
    return report;
  }

  // Passes of this process run one after another (the timer's and manual ones alike).
  let chain: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = chain.then(fn);
    chain = p.catch(() => undefined);
    return p;
  };

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const interval = opts.intervalMs ?? 5000;
  const schedule = () => {
    if (stopped || interval <= 0) return;
    timer = setTimeout(() => {
      void exclusive(deliverDue)
        .catch((err) => logger.error({ err }, 'email dispatch pass failed'))
        .finally(schedule);
    }, interval);
    timer.unref();
  };
  schedule();
  logger.debug({ transport: transportName, interval_ms: interval }, 'email dispatcher started');

  return {
    transportName,
    deliverDue: () => exclusive(deliverDue),
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}
