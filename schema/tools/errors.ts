/** Stable error codes a caller (the agent, the Slack bot, any MCP client) can branch on. */
export const TOOL_ERROR_CODES = [
  'invalid_arguments',
  'approval_required',
  'approval_not_found',
  'approval_not_approved',
  'approval_expired',
  'arguments_mismatch',
  'out_of_scope',
  // The caller presented no credential but asked for more than the knowledge base.
  'unauthenticated',
  'not_found',
  'slot_unavailable',
  'slot_in_past',
  'outside_business_hours',
  // The booking is cancelled, already started or over: it can't be moved or cancelled any more.
  'booking_not_changeable',
  'no_email_on_file',
  'conflict',
  'internal',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }

  toJSON() {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** The error body a tool call returns (`isError: true`, JSON text content). */
export interface ToolErrorBody {
  error: { code: ToolErrorCode; message: string; details: Record<string, unknown> };
}

export function parseToolError(text: string): ToolErrorBody['error'] | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<ToolErrorBody>;
    if (parsed.error && typeof parsed.error.code === 'string') return parsed.error as ToolErrorBody['error'];
  } catch {
    /* the SDK's own validation errors are plain text */
  }
  if (/validation error|Invalid arguments/i.test(text))
    return { code: 'invalid_arguments', message: text, details: {} };
  return undefined;
}
