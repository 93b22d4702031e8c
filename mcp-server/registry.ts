import { TOOL_CATALOG, type ContractOf, type ToolName } from '../schema/tools/catalog.js';
import type { HandlerFor, ToolDefinition } from './tool-handler.js';
import { bookSlot } from './tools/book-slot.js';
import { cancelBooking } from './tools/cancel-booking.js';
import { createTicket } from './tools/create-ticket.js';
import { lookupCustomer } from './tools/lookup-customer.js';
import { rescheduleBooking } from './tools/reschedule-booking.js';
import { searchHelpCentre } from './tools/search-knowledge-base.js';
import { sendEmail } from './tools/send-email.js';
import { updateCustomer } from './tools/update-customer.js';

/**
 * One handler per tool of the catalog in schema/tools, typed by that tool's own schemas. The type
 * has exactly the catalog's names as keys: a tool without a handler, or a handler for a tool the
 * catalog doesn't list, does not compile.
 */
const HANDLERS: { [N in ToolName]: HandlerFor<ContractOf<N>> } = {
  search_knowledge_base: searchHelpCentre,
  lookup_customer: lookupCustomer,
  create_ticket: createTicket,
  update_customer: updateCustomer,
  send_email: sendEmail,
  book_slot: bookSlot,
  reschedule_booking: rescheduleBooking,
  cancel_booking: cancelBooking,
};

/** The catalog with its handlers, in catalog order: what the MCP server publishes. */
export const SERVED_TOOLS: readonly ToolDefinition[] = TOOL_CATALOG.map(
  (contract) => ({ ...contract, handler: HANDLERS[contract.name] }) as unknown as ToolDefinition,
);
