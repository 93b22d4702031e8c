import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger, type Approval } from '../agent/approvals/ledger.js';
import { fixedClock } from '../core/clock.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../core/testing/test-database.js';
import { approvalCard } from './blocks/card.js';
import { CardPublisher, loadCardContext } from './cards.js';

/*
 * "Can you move my deep clean to Wednesday" became a second booking and was approved: the card
 * did not say the customer already had one. The card's context comes from Postgres when it is
 * drawn, so the warning is there whatever the model proposed.
 */
const clock = fixedClock(TEST_NOW); // Mon Dec 7, 09:00 EST
let db: TestDatabase;
let ledger: Ledger;
let customerId: string;
let otherId: string;
let existing: string;
let n = 0;

beforeAll(async () => {
  db = await createSeededDatabase({ clock });
  ledger = new Ledger(db.pool, clock, { policy: { kind: 'next_business_day_end' }, timeZone: TEST_TZ });
  const customers = (await db.pool.query<{ id: string }>(`SELECT id FROM customers ORDER BY id LIMIT 2`)).rows;
  customerId = customers[0]!.id;
  otherId = customers[1]!.id;
  existing = (
    await db.pool.query<{ id: string }>(
      `INSERT INTO bookings (customer_id, service_id, crew, starts_at, ends_at)
       VALUES ($1, 'svc_deep_clean', 'crew-a', '2026-12-08T15:00:00Z', '2026-12-08T19:00:00Z') RETURNING id`,
      [customerId],
    )
  ).rows[0]!.id;
});
afterAll(async () => {
  await db?.drop();
});

const propose = async (tool: string, args: Record<string, unknown>, customer = customerId): Promise<Approval> =>
  (
    await ledger.propose({
      threadId: 'test:cards',
      toolCallId: `call_${++n}`,
      tool,
      rawArgs: { customer_id: customer, ...args },
      customerId: customer,
      proposedBy: `customer:${customer}`,
      requestText: 'can you move my deep clean to wednesday',
    })
  ).approval;

const cardText = async (a: Approval, now?: Date) =>
  JSON.stringify(approvalCard(a, await loadCardContext(db.pool, a, TEST_TZ, now)).blocks);

describe('cards drawn from Postgres', () => {
  it('a book_slot for a service the customer already has booked that week shows the duplicate warning', async () => {
    const a = await propose('book_slot', { service_id: 'svc_deep_clean', start_time: '2026-12-09T10:00:00-05:00' });
    const publisher = new CardPublisher({
      pool: db.pool,
      ledger,
      clock,
      logger: silentLogger,
      timeZone: TEST_TZ,
      managersChannel: 'C0MANAGERS',
      client: () => {
        throw new Error('not posting in this test');
      },
    });
    const t = JSON.stringify((await publisher.render(a)).blocks);
    expect(t).toContain(`⚠️ Customer already has Deep Cleaning on Tue, Dec 8, 10:00 AM EST (\`${existing}\`)`);
    expect(t).toContain(`Deep Cleaning · Tue, Dec 8, 10:00 AM EST · \`${existing}\``);
    // An edit form's context (no clock) loads no bookings and makes no claim about them.
    expect(await cardText(a)).not.toContain('⚠️');
  });

  it('a reschedule names the booking moved; someone else’s booking or none at all is flagged', async () => {
    const move = await propose('reschedule_booking', {
      booking_id: existing,
      new_start_time: '2026-12-09T10:00:00-05:00',
    });
    const t = await cardText(move, clock.now());
    expect(t).toContain(`Deep Cleaning (\`${existing}\`)`);
    expect(t).toContain('Tue, Dec 8, 10:00 AM EST → *Wed, Dec 9, 10:00 AM EST*');
    expect(t).toContain('No fee');
    // Asked 25 hours before the visit: free, however late the card is decided.
    expect(t).not.toContain('costs $25.00');

    const theirs = await propose('cancel_booking', { booking_id: existing }, otherId);
    expect(await cardText(theirs, clock.now())).toContain(`\`${existing}\` belongs to another customer`);
    const missing = await propose('cancel_booking', { booking_id: 'BKG-999999' });
    expect(await cardText(missing, clock.now())).toContain('There is no booking `BKG-999999`');
  });
});
