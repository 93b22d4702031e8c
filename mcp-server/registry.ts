import type { z } from 'zod';
import { canonicalJson, hashArgs } from './canonical.js';
import type { ToolDefinition, WriteTool } from './define-tool.js';
import { bookSlotTool } from './tools/book-slot.js';
import { createTicketTool } from './tools/create-ticket.js';
import { lookupCustomerTool } from './tools/lookup-customer.js';
import { searchKnowledgeBaseTool } from './tools/search-knowledge-base.js';
import { sendEmailTool } from './tools/send-email.js';
import { updateCustomerTool } from './tools/update-customer.js';

/**
 * The one list of tools. The MCP server publishes it, the agent's gate routes by `MUTATING_TOOLS`,
 * the eval checks argument validity with `parseToolArgs`, the Slack edit form is generated from
 * `input`. Nothing else names the tools again.
 */
export const TOOLS: readonly ToolDefinition[] = [
  searchKnowledgeBaseTool,
  lookupCustomerTool,
  createTicketTool,
  updateCustomerTool,
  sendEmailTool,
  bookSlotTool,
] as unknown as readonly ToolDefinition[];

export const TOOL_REGISTRY: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));

/** Derived, never typed twice: routing through the approval gate depends on this set only. */
export const MUTATING_TOOLS: ReadonlySet<string> = new Set(TOOLS.filter((t) => t.mutating).map((t) => t.name));
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(TOOLS.filter((t) => !t.mutating).map((t) => t.name));

export const isMutating = (toolName: string): boolean => MUTATING_TOOLS.has(toolName);

export function getTool(name: string): ToolDefinition | undefined {
  return TOOL_REGISTRY.get(name);
}

export function getWriteTool(name: string): WriteTool | undefined {
  const t = TOOL_REGISTRY.get(name);
  return t?.mutating ? t : undefined;
}

export type ParsedArgs =
  | { ok: true; args: Record<string, unknown>; canonical: string; hash: string }
  | { ok: false; issues: { path: string; message: string }[] };

/**
 * Validate raw arguments with the tool's own schema and return the canonical form (defaults
 * applied, unknown keys dropped) and its hash: what an approval is granted for.
 */
export function parseToolArgs(toolName: string, raw: unknown): ParsedArgs {
  const tool = TOOL_REGISTRY.get(toolName);
  if (!tool) return { ok: false, issues: [{ path: '', message: `unknown tool "${toolName}"` }] };
  const result = (tool.input as z.ZodType).safeParse(raw ?? {});
  if (!result.success) {
    return {
      ok: false,
      issues: result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    };
  }
  const args = JSON.parse(canonicalJson(result.data)) as Record<string, unknown>;
  return { ok: true, args, canonical: canonicalJson(args), hash: hashArgs(args) };
}
