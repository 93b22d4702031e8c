import type { PoolClient, Queryable } from '../../core/pg-pool.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { addDays, localParts, zonedTime } from '../../core/time.js';
import { CUSTOMERS } from './customers.js';
import { KB_ARTICLES } from './kb-articles.js';
import { SERVICES } from './services.js';
import { seedOwnVisits } from './visits.js';
import { CREWS, openingHours, SLOT_DAYS } from '../business/calendar.js';

const SEED_KEY = 'demo_seed';
const SEED_VERSION = 1;

/**
 * The demo business. Reference data (articles, services) is upserted on every start so content
 * edits reach existing databases; customers and pre-made bookings are written once, since the
 * product itself changes them afterwards. Slots are topped up to SLOT_DAYS ahead of the clock.
 * Runs inside the migration lock, so concurrent start-ups seed once.
 */
export async function seedDemo(
  db: PoolClient | Queryable,
  opts: { clock: Clock; timeZone: string; logger?: Logger },
): Promise<{ firstRun: boolean; slotsAdded: number }> {
  for (const s of SERVICES) {
    await db.query(
      `INSERT INTO services (id, name, description, category, duration_minutes, price_cents)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description,
         category = EXCLUDED.category, duration_minutes = EXCLUDED.duration_minutes, price_cents = EXCLUDED.price_cents`,
      [s.id, s.name, s.description, s.category, s.duration_minutes, s.price_cents],
    );
  }
  // One statement for the whole help centre: the vocabulary trigger rebuilds once per statement.
  await db.query(
    `INSERT INTO kb_articles (id, topic, title, body)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
     ON CONFLICT (id) DO UPDATE SET topic = EXCLUDED.topic, title = EXCLUDED.title, body = EXCLUDED.body, updated_at = now()
     WHERE (kb_articles.topic, kb_articles.title, kb_articles.body) IS DISTINCT FROM (EXCLUDED.topic, EXCLUDED.title, EXCLUDED.body)`,
    [
      KB_ARTICLES.map((a) => a.id),
      KB_ARTICLES.map((a) => a.topic),
      KB_ARTICLES.map((a) => a.title),
      KB_ARTICLES.map((a) => a.body),
    ],
  );
  const slotsAdded = await ensureSlots(db, opts.clock.now(), opts.timeZone);

  const seeded = await db.query(`SELECT value FROM app_meta WHERE key = $1`, [SEED_KEY]);
  if (seeded.rowCount) return { firstRun: false, slotsAdded };

  for (const c of CUSTOMERS) {
    await db.query(
      `INSERT INTO customers (id, name, email, phone, address_line1, address_unit, city, postal_code, preferences, notes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
      [
        c.id,
        c.name,
        c.email,
        c.phone,
        c.address?.line1 ?? null,
        c.address?.unit ?? null,
        c.address?.city ?? null,
        c.address?.postal_code ?? null,
        JSON.stringify(c.preferences),
        c.notes,
      ],
    );
    if (c.slack_user_id) {
      await db.query(
        `INSERT INTO slack_identities (slack_user_id, customer_id, linked_by) VALUES ($1, $2, 'seed')
         ON CONFLICT (slack_user_id) DO NOTHING`,
        [c.slack_user_id, c.id],
      );
    }
  }
  await prebook(db);
  await seedOwnVisits(db, CUSTOMERS, opts.clock.now(), opts.timeZone);
  await db.query(`INSERT INTO app_meta (key, value) VALUES ($1, $2)`, [
    SEED_KEY,
    JSON.stringify({ version: SEED_VERSION, at: opts.clock.now().toISOString() }),
  ]);
  opts.logger?.info(
    { customers: CUSTOMERS.length, articles: KB_ARTICLES.length, services: SERVICES.length, slotsAdded },
    'seeded the demo business',
  );
  return { firstRun: true, slotsAdded };
}

/** Crew-hours of the business calendar for the next SLOT_DAYS days (starting tomorrow, local time), added if missing. */
export async function ensureSlots(db: Queryable, now: Date, timeZone: string): Promise<number> {
  const today = localParts(now, timeZone);
  const starts: string[] = [];
  for (let i = 1; i <= SLOT_DAYS; i++) {
    const d = addDays(today, i);
    const hours = openingHours(d);
    if (!hours) continue;
    for (let h = hours[0]; h <= hours[1]; h++) starts.push(zonedTime({ ...d, hour: h }, timeZone).toISOString());
  }
  const res = await db.query(
    `INSERT INTO slots (crew, starts_at, ends_at)
     SELECT crew, s::timestamptz, s::timestamptz + interval '1 hour'
     FROM unnest($1::text[]) AS s CROSS JOIN unnest($2::text[]) AS crew
     ON CONFLICT (crew, starts_at) DO NOTHING`,
    [starts, [...CREWS]],
  );
  return res.rowCount ?? 0;
}

/**
 * A realistic calendar is never empty: book roughly a quarter to a third of the crew-hours, deterministically
 * (same clock, same calendar), so that "that time is taken" happens in demos and evals.
 */
async function prebook(db: Queryable): Promise<void> {
  const slots = (
    await db.query<{ id: number; crew: string; starts_at: Date }>(
      `SELECT id, crew, starts_at FROM slots ORDER BY starts_at, crew`,
    )
  ).rows;
  const services = SERVICES.filter((s) => s.duration_minutes <= 180);
  // A customer with a calendar of its own is left out, so adding one keeps who holds each booking here.
  const customers = CUSTOMERS.filter((c) => c.address && !c.visits);
  const taken = new Set<number>();
  let n = 0;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if ((i * 7) % 13 >= 2 || taken.has(slot.id)) continue;
    const service = services[n % services.length]!;
    const hours = Math.ceil(service.duration_minutes / 60);
    const run = slots.filter(
      (s) =>
        s.crew === slot.crew &&
        s.starts_at.getTime() >= slot.starts_at.getTime() &&
        s.starts_at.getTime() < slot.starts_at.getTime() + hours * 3_600_000,
    );
    if (run.length !== hours || run.some((s) => taken.has(s.id))) continue;
    const customer = customers[n % customers.length]!;
    const booking = await db.query<{ id: string }>(
      `INSERT INTO bookings (customer_id, service_id, crew, starts_at, ends_at, notes)
       VALUES ($1, $2, $3, $4, $5, 'seeded') RETURNING id`,
      [customer.id, service.id, slot.crew, slot.starts_at, new Date(slot.starts_at.getTime() + hours * 3_600_000)],
    );
    for (const s of run) {
      taken.add(s.id);
      await db.query(`INSERT INTO booking_slots (slot_id, booking_id) VALUES ($1, $2)`, [s.id, booking.rows[0]!.id]);
    }
    n++;
  }
}
