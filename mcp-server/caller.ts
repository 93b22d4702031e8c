import type { ToolScope } from './tool-handler.js';
import { ToolError } from '../schema/tools/errors.js';
import type { CallMeta } from '../schema/tools/call-meta.js';

/**
 * Who is on the other end of the connection, established by the transport before any `_meta` is
 * read. `_meta` may only narrow what the caller is entitled to, never widen it.
 */
export type Caller =
  /** A stdio child of its worker, or an in-process transport: the process boundary is the credential. */
  | { kind: 'local' }
  /** The agent service (`MCP_API_KEY`): acts for the conversation identity it names in `_meta`. */
  | { kind: 'agent' }
  /** A member of staff holding one of `MCP_STAFF_KEYS`. */
  | { kind: 'staff'; name: string }
  /** No credential, on a server with no keys configured: the knowledge base only. */
  | { kind: 'unauthenticated' };

export const LOCAL_CALLER: Caller = { kind: 'local' };

/** For logs and the audit trail; never holds a secret. */
export const callerLabel = (c: Caller): string => (c.kind === 'staff' ? `staff:${c.name}` : c.kind);

/**
 * The one place a call's scope is decided, for every transport. Refuses (rather than quietly
 * downgrades) a `_meta` that claims more than the credential allows, so a misconfigured client
 * sees why instead of getting empty answers.
 */
export function scopeFor(caller: Caller, meta: CallMeta): ToolScope {
  switch (caller.kind) {
    case 'local':
      // The worker that spawned us vouches for the identity: the behaviour stdio always had.
      if (meta.customer_id) return { kind: 'customer', customerId: meta.customer_id };
      if (meta.anonymous) return { kind: 'anonymous' };
      return { kind: 'staff', staffId: meta.staff_id ?? 'unidentified' };
    case 'agent':
      // The agent derives customer_id from the stored Slack link; it never needs staff scope, so a
      // key that leaked from a worker can't read every customer.
      if (meta.customer_id) return { kind: 'customer', customerId: meta.customer_id };
      if (meta.staff_id && !meta.anonymous) {
        throw new ToolError(
          'out_of_scope',
          'The agent credential acts for a conversation (customer_id or anonymous), never for staff: ' +
            'use a staff key (MCP_STAFF_KEYS).',
        );
      }
      return { kind: 'anonymous' };
    case 'staff':
      // Staff may narrow to a customer's conversation; who they are is the key's name, not staff_id.
      if (meta.customer_id) return { kind: 'customer', customerId: meta.customer_id };
      if (meta.anonymous) return { kind: 'anonymous' };
      return { kind: 'staff', staffId: caller.name };
    case 'unauthenticated': {
      const claimed = (['customer_id', 'staff_id', 'approval_id', 'dry_run'] as const).filter(
        (k) => meta[k] !== undefined && meta[k] !== false,
      );
      if (claimed.length) {
        throw new ToolError(
          'unauthenticated',
          'Without a credential only the knowledge base is available; ' +
            `_meta.${claimed.join(', _meta.')} needs Authorization: Bearer <key>.`,
          {
            claimed,
          },
        );
      }
      return { kind: 'anonymous' };
    }
  }
}
