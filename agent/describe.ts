import { formatInZone } from '../core/time.js';
import { getTool } from '../schema/tools/catalog.js';
import type { PlanContext } from './plan-context.js';

/** One line in plain words for customers and managers: "Book Deep Cleaning on Tue, Dec 8, 10:00 AM EST". */
export function describeCall(
  tool: string,
  args: Record<string, unknown>,
  ctx: { timeZone: string; services: PlanContext['services'] },
): string {
  const a = args as Record<string, any>;
  switch (tool) {
    case 'book_slot': {
      const service = ctx.services.find((s) => s.id === a.service_id)?.name ?? a.service_id;
      return `Book ${service} on ${formatInZone(a.start_time, ctx.timeZone)}`;
    }
    case 'update_customer': {
      const fields = Object.entries(a.changes ?? {}).map(([k, v]) =>
        k === 'address' && v && typeof v === 'object'
          ? `address to ${[(v as any).line1, (v as any).unit, (v as any).city, (v as any).postal_code].filter(Boolean).join(', ')}`
          : k === 'preferences'
            ? `preferences (${Object.entries(v as object).map(([pk, pv]) => `${pk}: ${pv}`).join(', ')})`
            : `${k} to ${JSON.stringify(v)}`,
      );
      return `Update your ${fields.join(', ')}`;
    }
    case 'send_email':
      return `Email you "${a.subject}"`;
    case 'create_ticket':
      return `Open a ${a.priority ?? 'normal'}-priority support ticket: "${a.subject}"`;
    default:
      return `${getTool(tool)?.verb ?? tool}`;
  }
}
