import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { Approval, Ledger } from '../agent/approvals/ledger.js';
import type { Clock } from '../core/clock.js';
import { lostWhileStoppingSoon, type Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import { pendingWithoutCard } from '../schema/approvals/store.js';
import { approvalCard } from './blocks/card.js';
import { cardContextOf, loadCardContext } from './card-context-sql.js';
import { claimCards, type ClaimedCard, deferCard, requestCards, settleCard } from './card-outbox.js';

export { loadCardContext };

/** Cards claimed per statement: few, since each is drawn as it was when claimed. */
const BATCH = 5;
/** Long enough for a send that waits out Slack's rate limits; a dead worker's claims run out after it. */
const LEASE_MS = 5 * 60_000;
/** Changes landing this close together are drawn once. */
const COALESCE_MS = 15;
/**
 * How long an approval's card waits for its outcome: the worker that recorded the approval runs
 * the write right away, so approved → executed is usually one update of the card instead of two
 * (half the Slack calls and outbox statements of a decision). A slower write shows "approved" first.
 */
export const OUTCOME_WAIT_MS = 250;
const MAX_ATTEMPTS = 8;

/**
 * Posts and updates approval cards, off the path of the change that asked for them: a decision
 * is answered without waiting for Slack. Every change of an approval's status is recorded in the
 * card outbox by the ledger's own UPDATE (schema/migrations/007), so none is lost to a crash; this
 * worker's sender claims due cards, draws each from the current ledger row (several changes of one
 * card become one update of its latest state) and sends them one at a time per channel, at the
 * pace Slack allows. A claim keeps other workers off a card while it is sent, and the outbox row's
 * version tells whether the card changed meanwhile, so an older state never follows a newer one.
 * At most one card per approval: the card is recorded with a conditional UPDATE and a post that
 * lost that race is deleted again.
 */
export class CardPublisher {
  private readonly claimant = randomUUID();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (ms since the epoch): a sooner kick brings it forward. */
  private due = 0;
  /** Kicked while sending: send again this soon after (the shortest delay asked for). */
  private againIn: number | undefined;

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

  /** Redraw these approvals' cards (also when the ledger did not change: a stale card); never waits for Slack. */
  async sync(approvals: Pick<Approval, 'id'>[]): Promise<void> {
    await requestCards(
      this.deps.pool,
      approvals.map((a) => a.id),
    );
    this.kick();
  }

  /**
   * Send what is due within `delayMs` (the ledger recorded the request already). Returns at once.
   * A later kick with a shorter delay sends sooner; one with a longer delay never postpones.
   */
  kick(delayMs = COALESCE_MS): void {
    if (this.running) {
      this.againIn = Math.min(this.againIn ?? delayMs, delayMs);
      return;
    }
    const due = Date.now() + delayMs;
    if (this.timer && this.due <= due) return;
    clearTimeout(this.timer);
    this.due = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.drain().finally(() => {
        this.running = undefined;
        const again = this.againIn;
        this.againIn = undefined;
        if (again !== undefined) this.kick(again);
      });
    }, delayMs);
  }

  /** Wait until this worker's sender has nothing left to send (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running || this.timer) {
      await (this.running ?? new Promise((r) => setTimeout(r, COALESCE_MS)));
    }
  }

  /**
   * Claim and send until nothing claimed is left over. A kick meanwhile is not a reason to claim
   * again at once: it asked for its own delay (an approval's card waits for its outcome).
   */
  private async drain(): Promise<void> {
    let more: boolean;
    do {
      let batch: ClaimedCard[];
      try {
        batch = await claimCards(this.deps.pool, {
          claimant: this.claimant,
          limit: BATCH,
          leaseMs: LEASE_MS,
          now: this.deps.clock.now(),
        });
      } catch (err) {
        if (await lostWhileStoppingSoon(err)) this.deps.logger.debug({ err }, 'card claim ended by stopping');
        else this.deps.logger.error({ err }, 'could not claim approval cards; the reconciler retries');
        return;
      }
      // One channel's cards one at a time (Slack's limits are per channel); channels side by side.
      const byChannel = new Map<string, ClaimedCard[]>();
      for (const c of batch) {
        const channel = c.approval?.card_channel ?? this.deps.managersChannel;
        byChannel.set(channel, [...(byChannel.get(channel) ?? []), c]);
      }
      const changed = await Promise.all(
        [...byChannel.values()].map(async (cards) => {
          let again = false;
          for (const c of cards) again = (await this.send(c)) || again;
          return again;
        }),
      );
      // A card that changed while it was sent is drawn again now, unless the change came with a
      // kick of this worker's (then as soon as that kick asked: an approval waits for its outcome).
      more = batch.length === BATCH || (changed.some(Boolean) && this.againIn === undefined);
    } while (more);
  }

  /** Draw and send one claimed card; true when it is due again (it changed while being sent). */
  private async send(c: ClaimedCard): Promise<boolean> {
    const a = c.approval;
    const log = this.deps.logger.child({ approval_id: c.approvalId, ...(a ? { thread_id: a.thread_id } : {}) });
    try {
      // Nothing to show for a request replaced or taken back before its card went out.
      const nothing = !a || (!a.card_ts && (a.status === 'superseded' || a.status === 'withdrawn'));
      const posted = nothing ? undefined : await this.draw(a, c);
      const s = await settleCard(this.deps.pool, {
        approvalId: c.approvalId,
        claimant: this.claimant,
        version: c.version,
        posted,
      });
      if (posted && !s.attached) {
        // Another card was recorded first: keep that one, redraw it.
        await this.deps
          .client()
          .chat.delete({ channel: posted.channel, ts: posted.ts })
          .catch(() => undefined);
        await requestCards(this.deps.pool, [c.approvalId]);
        return true;
      }
      if (posted) log.info({ card_ts: posted.ts, status: a!.status }, 'approval card posted');
      else if (a && !nothing) log.info({ status: a.status }, 'approval card updated');
      if (s.settled === 'lost') await requestCards(this.deps.pool, [c.approvalId]);
      return s.settled !== 'done';
    } catch (err) {
      const giveUp = c.attempts >= MAX_ATTEMPTS;
      log.error({ err, attempts: c.attempts, gave_up: giveUp }, 'could not post or update the approval card');
      await deferCard(this.deps.pool, {
        approvalId: c.approvalId,
        claimant: this.claimant,
        retryMs: Math.min(300_000, 1000 * 2 ** c.attempts),
        giveUp,
      }).catch((e) => log.error({ err: e }, 'could not defer the approval card'));
      return false;
    }
  }

  /** Update the card in place, or post it; returns the new card's place when it was posted. */
  private async draw(a: Approval, c: ClaimedCard): Promise<{ channel: string; ts: string } | undefined> {
    const now = this.deps.clock.now();
    const card = approvalCard(a, cardContextOf(c.context, this.deps.timeZone, now));
    const client = this.deps.client();
    if (a.card_channel && a.card_ts) {
      await client.chat.update({ channel: a.card_channel, ts: a.card_ts, text: card.text, blocks: card.blocks });
      return undefined;
    }
    const res = await client.chat.postMessage({
      channel: this.deps.managersChannel,
      text: card.text,
      blocks: card.blocks,
      unfurl_links: false,
      unfurl_media: false,
    });
    return { channel: res.channel ?? this.deps.managersChannel, ts: res.ts! };
  }

  /**
   * Pending approvals whose card never went out (their request was given up, the database was
   * restored): ask for them again, and send whatever is due, claims of dead workers included.
   * Run by every worker; the claims and the conditional UPDATE keep it to one card.
   */
  async reconcile(graceMs = 60_000): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - graceMs);
    const rows = await pendingWithoutCard(this.deps.pool, cutoff);
    if (rows.length) this.deps.logger.warn({ count: rows.length }, 'posting approval cards that never went out');
    if (rows.length)
      await requestCards(
        this.deps.pool,
        rows.map((r) => r.id),
      );
    this.kick();
    await this.idle();
    return rows.length;
  }

  startReconciler(intervalMs: number): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.reconcile()
        .catch(async (err) =>
          (await lostWhileStoppingSoon(err))
            ? this.deps.logger.debug({ err }, 'card reconciliation ended by stopping')
            : this.deps.logger.error({ err }, 'card reconciliation failed'),
        )
        .finally(() => (running = false));
    }, intervalMs);
    timer.unref();
    this.kick();
    return () => clearInterval(timer);
  }
}
