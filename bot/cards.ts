import type { WebClient } from '@slack/web-api';
import { BOOKING_COLUMNS, BOOKING_FROM } from '../schema/bookings/row.js';
import type { Approval, Ledger } from '../agent/approvals/ledger.js';
import type { Clock } from '../core/clock.js';
import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import { attachCard, pendingWithoutCard } from '../schema/approvals/store.js';
import { approvalCard, type BookingRow, type CardContext, type CustomerRow, type ServiceRow } from './blocks/card.js';

/** Enough for every check a card makes; the card lists fewer. */
const MAX_UPCOMING = 50;

/**
 * Everything a card is drawn from besides the approval row. With `now` (the business clock), also
 * the customer's upcoming bookings and the booking a reschedule or cancellation names, for the
 * card's checks; without it (an edit form) those stay unloaded, and no check is made.
 */
export async function loadCardContext(
  pool: Pool,
  a: Pick<Approval, 'customer_id' | 'thread_id'> & Partial<Pick<Approval, 'tool' | 'args'>>,
  timeZone: string,
  now?: Date,
): Promise<CardContext> {
  const bookingId =
    (a.tool === 'reschedule_booking' || a.tool === 'cancel_booking') && typeof a.args?.booking_id === 'string'
      ? a.args.booking_id
      : undefined;
  const [customer, services, conversation, upcoming, target] = await Promise.all([
    a.customer_id
      ? pool.query<CustomerRow>(
          `SELECT id, name, email, phone, address_line1, address_unit, city, postal_code, preferences, notes
           FROM customers WHERE id = $1`,
          [a.customer_id],
        )
      : undefined,
    pool.query<ServiceRow>(`SELECT id, name, duration_minutes, price_cents FROM services`),
    pool.query<{ slack_channel: string | null }>(`SELECT slack_channel FROM conversations WHERE thread_id = $1`, [
      a.thread_id,
    ]),
    now && a.customer_id
      ? pool.query<BookingRow>(
          `SELECT ${BOOKING_COLUMNS} FROM ${BOOKING_FROM}
           WHERE b.customer_id = $1 AND b.status = 'confirmed' AND b.starts_at > $2
           ORDER BY b.starts_at, b.id LIMIT ${MAX_UPCOMING}`,
          [a.customer_id, now],
        )
      : undefined,
    now && bookingId
      ? pool.query<BookingRow>(`SELECT ${BOOKING_COLUMNS} FROM ${BOOKING_FROM} WHERE b.id = $1`, [bookingId])
      : undefined,
  ]);
  return {
    timeZone,
    customer: customer?.rows[0] ?? null,
    services: services.rows,
    conversationChannel: conversation.rows[0]?.slack_channel ?? null,
    ...(now ? { now } : {}),
    ...(upcoming ? { upcomingBookings: upcoming.rows } : {}),
    ...(target ? { targetBooking: target.rows[0] ?? null } : {}),
  };
}

/**
 * Posts and updates approval cards. Always draws from the current ledger row (not the object a
 * hook was handed), so updates that arrive out of order, on any worker, still show the latest
 * state. At most one card per approval: the card is recorded with a conditional UPDATE and a
 * post that lost that race is deleted again.
 */
export class CardPublisher {
  constructor(
    private readonly deps: {
      pool: Pool;
      ledger: Ledger;
      clock: Clock;
      logger: Logger;
      timeZone: string;
      managersChannel: string;
      client: () => WebClient;
    },
  ) {}

  async render(a: Approval) {
    return approvalCard(a, await loadCardContext(this.deps.pool, a, this.deps.timeZone, this.deps.clock.now()));
  }

  /** Bring the cards of these approvals up to date: post new pending ones, redraw the rest. */
  async sync(approvals: Pick<Approval, 'id'>[]): Promise<void> {
    for (const { id } of approvals) {
      try {
        await this.syncOne(id);
      } catch (err) {
        this.deps.logger.error({ err, approval_id: id }, 'could not post or update the approval card');
      }
    }
  }

  async syncOne(id: string): Promise<void> {
    const a = await this.deps.ledger.get(id);
    if (!a) return;
    if (a.card_channel && a.card_ts) return this.update(a);
    // Nothing to show for a request replaced or taken back before its card went out.
    if (a.status === 'superseded' || a.status === 'withdrawn') return;
    await this.post(a);
  }

  private async post(a: Approval): Promise<void> {
    const log = this.deps.logger.child({ approval_id: a.id, thread_id: a.thread_id });
    const card = await this.render(a);
    const client = this.deps.client();
    const res = await client.chat.postMessage({
      channel: this.deps.managersChannel,
      text: card.text,
      blocks: card.blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
    const channel = res.channel ?? this.deps.managersChannel;
    const ts = res.ts!;
    if (!(await attachCard(this.deps.pool, a.id, channel, ts))) {
      // Another worker posted the card first: keep theirs.
      await client.chat.delete({ channel, ts }).catch(() => undefined);
      const now = await this.deps.ledger.get(a.id);
      if (now) await this.update(now);
      return;
    }
    log.info({ card_ts: ts, status: a.status }, 'approval card posted');
    // The decision may have landed while we were posting: draw the latest state.
    const latest = await this.deps.ledger.get(a.id);
    if (latest && latest.status !== a.status) await this.update(latest);
  }

  private async update(a: Approval): Promise<void> {
    const card = await this.render(a);
    await this.deps
      .client()
      .chat.update({ channel: a.card_channel!, ts: a.card_ts!, text: card.text, blocks: card.blocks });
    this.deps.logger.info({ approval_id: a.id, thread_id: a.thread_id, status: a.status }, 'approval card updated');
  }

  /**
   * Pending approvals whose card never went out (Slack was down, the worker died between the
   * proposal and the post): post them now. Run by every worker; the conditional UPDATE above
   * keeps it to one card.
   */
  async reconcile(graceMs = 60_000): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - graceMs);
    const rows = await pendingWithoutCard(this.deps.pool, cutoff);
    if (rows.length) this.deps.logger.warn({ count: rows.length }, 'posting approval cards that never went out');
    await this.sync(rows);
    return rows.length;
  }

  startReconciler(intervalMs: number): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.reconcile()
        .catch((err) => this.deps.logger.error({ err }, 'card reconciliation failed'))
        .finally(() => (running = false));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
