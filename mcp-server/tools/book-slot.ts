import type { Queryable } from '../../core/pg-pool.js';
import type { BookSlotArgs, BookSlotResult } from '../../schema/tools/book-slot.js';
import type { WriteContext } from '../tool-handler.js';
import { ToolError } from '../../schema/tools/errors.js';
import { isoInZone, requireCustomer } from './shared.js';
import { assertBookableStart, claimSlots, slotUnavailable, takeFreeCrew } from './slots.js';

interface ServiceRow {
  id: string;
  name: string;
  duration_minutes: number;
  price_cents: number;
  active: boolean;
}

/** A service that can still be booked, or `not_found`. */
async function requireActiveService(db: Queryable, serviceId: string): Promise<ServiceRow> {
  const service = (
    await db.query<ServiceRow>(`SELECT id, name, duration_minutes, price_cents, active FROM services WHERE id = $1`, [
      serviceId,
    ])
  ).rows[0];
  if (!service) throw new ToolError('not_found', `There is no service ${serviceId}.`, { service_id: serviceId });
  if (!service.active) {
    throw new ToolError('not_found', `${service.name} is no longer offered.`, {
      service_id: service.id,
      active: false,
    });
  }
  return service;
}

export async function bookSlot(args: BookSlotArgs, ctx: WriteContext): Promise<BookSlotResult> {
  const tx = ctx.tx;
  await requireCustomer(ctx, tx, args.customer_id);
  const service = await requireActiveService(tx, args.service_id);

  const start = new Date(args.start_time);
  const now = ctx.clock.now();
  const request = {
    start,
    field: 'start_time',
    hours: Math.ceil(service.duration_minutes / 60),
    now,
    timeZone: ctx.timeZone,
  };
  await assertBookableStart(tx, request);

  const ends = new Date(start.getTime() + service.duration_minutes * 60_000);
  const booked = await takeFreeCrew(tx, request, async (crew, slotIds) => {
    const row = await tx.query<{ id: string; status: string }>(
      `INSERT INTO bookings (customer_id, service_id, crew, starts_at, ends_at, notes, approval_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, status`,
      [args.customer_id, service.id, crew, start, ends, args.notes ?? null, ctx.approvalId, now],
    );
    await claimSlots(tx, row.rows[0]!.id, slotIds);
    return { ...row.rows[0]!, crew };
  });
  if (!booked) throw await slotUnavailable(tx, request, service.name);
  return {
    booking: {
      id: booked.id,
      customer_id: args.customer_id,
      service_id: service.id,
      service_name: service.name,
      crew: booked.crew,
      starts_at: isoInZone(start, ctx.timeZone),
      ends_at: isoInZone(ends, ctx.timeZone),
      price_cents: service.price_cents,
      status: booked.status,
    },
  };
}
