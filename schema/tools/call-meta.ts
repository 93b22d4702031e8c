import { z } from 'zod';

/**
 * What a caller puts in the MCP request `_meta`. The agent sets it from the conversation's
 * verified identity, never from what the model wrote: the model sees neither these keys nor
 * their values. It is a claim, weighed against the caller's credential in `scopeFor` (caller.ts).
 */
export const CallMetaSchema = z.object({
  approval_id: z.string().max(64).optional().describe('The approval that grants this write.'),
  // min(1): an empty customer id must not quietly fall through to the unrestricted staff scope.
  customer_id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('Acting for this customer: reads and writes are limited to them.'),
  staff_id: z
    .string()
    .max(128)
    .optional()
    .describe(
      'Acting for a member of staff: honoured only from a local (stdio) caller; ' +
        'over HTTP the staff key names the actor.',
    ),
  thread_id: z.string().max(200).optional().describe('Conversation, for logs.'),
  anonymous: z.boolean().optional().describe('Acting for someone not linked to a customer: knowledge base only.'),
  dry_run: z.boolean().optional().describe('Rehearse a write in a rolled-back transaction.'),
});
export type CallMeta = z.infer<typeof CallMetaSchema>;
