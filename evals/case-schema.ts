import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MUTATING_TOOLS } from '../schema/tools/catalog.js';

/**
 * The golden-set format. One JSON file holds an array of cases; every file is validated on load,
 * so a typo in a golden file fails loudly instead of silently measuring nothing.
 */

export const CASE_KINDS = [
  'knowledge',
  'booking',
  'contact_change',
  'email',
  'ticket',
  'lookup',
  'multi_turn',
  'multi_intent',
  'ambiguity',
  'injection',
  'unlinked',
  'decision',
  'other_account',
] as const;

/**
 * An expected argument value. Plain JSON matches exactly (objects partially: only the keys given are
 * checked, recursively; ISO date-times with an offset compare as instants). Two matchers for free
 * text: `{ "$regex": "…" }` (case-insensitive) and `{ "$absent": true }` (the key must be missing).
 * Alternatives: `{ "$one_of": [a, b] }` (any of them matches). A time relative to the case's clock:
 * `{ "$date": "fri 10:00" }` (see `resolveDate` in metrics.ts).
 */
export type ArgExpectation = unknown;

const ToolName = z.string().regex(/^[a-z_]+$/, 'a tool name like book_slot');

const compiles = (source: string) => {
  try {
    new RegExp(source, 'i');
    return true;
  } catch {
    return false;
  }
};
const Regex = z.string().min(1).refine(compiles, { message: 'not a valid regular expression' });

/** A phrase the reply must carry: itself, `{ "any": [...] }` (one of them), or `{ "$regex": "…" }`. */
const PhraseExpectationSchema = z.union([
  z.string().min(1),
  z.object({ any: z.array(z.string().min(1)).min(1) }).strict(),
  z.object({ $regex: Regex }).strict(),
]);

const ReplyChecks = {
  /**
   * Phrases the reply must contain (case-insensitive; clock times and dollar amounts compare in one
   * form, see `evals/reply-match.ts`), each a phrase, any of several, or a regex.
   */
  reply_includes: z.array(PhraseExpectationSchema).optional(),
  /** Phrases the reply must not contain (compared like `reply_includes` phrases). */
  reply_excludes: z.array(z.string().min(1)).optional(),
};

/** Tables an end-state check may read (after the turn's writes were decided). */
export const END_STATE_TABLES = ['bookings', 'tickets', 'customers', 'email_outbox'] as const;
export type EndStateTable = (typeof END_STATE_TABLES)[number];
const RowSets = z.partialRecord(z.enum(END_STATE_TABLES), z.array(z.record(z.string(), z.unknown())).min(1));

/** An ISO date-time with an offset: a case's clock. */
const IsoInstant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:\d{2})$/, 'an ISO date-time with an offset');

const ArticleId = z.string().regex(/^kb-[a-z0-9-]+$/);
/** A passage of the named article, or a non-empty list of passages meaning any one of them. */
const FactSchema = z.union([z.string().min(2), z.array(z.string().min(2)).min(1)]);

/**
 * Grounding: the reply carries `fact` (a passage of article `article`, compared like a
 * `reply_includes` phrase), or every one of `facts`, and quotes no other article (no run of 8 words
 * from one, unless it is listed in `also`). Every alternative of a fact must be a passage of the
 * article, so an alternative cannot loosen the grounding beyond the article's text.
 */
const ReplyFromArticleSchema = z
  .object({
    article: ArticleId,
    fact: FactSchema.optional(),
    facts: z.array(FactSchema).min(1).optional(),
    also: z.array(ArticleId).optional(),
  })
  .strict()
  .refine((g) => (g.fact === undefined) !== (g.facts === undefined), {
    message: 'reply_from_article needs exactly one of fact and facts',
  });

/** The checks of one expectation: the whole of a turn's `expect`, or one of its `one_of` alternatives. */
const ExpectationFields = {
  /**
   * The exact multiset of tools the model proposed or called in this turn (writes, reads, and
   * withdraw_request); [] = none. The retrieve step's automatic help-centre search is not counted.
   * `{ "one_of": [[…], […]] }`: any of these multisets.
   */
  tools: z.union([z.array(ToolName), z.object({ one_of: z.array(z.array(ToolName)).min(2) }).strict()]).optional(),
  /**
   * Reads that may be called on top of `tools` (any number of times) without failing tool
   * selection: a lookup before a booking, a search before an answer. Never a write.
   */
  tools_allowed: z
    .array(ToolName)
    .min(1)
    .refine((t) => !t.some((x) => MUTATING_TOOLS.has(x)), { message: 'tools_allowed holds reads only' })
    .optional(),
  /** Grounding (see ReplyFromArticleSchema). */
  reply_from_article: ReplyFromArticleSchema.optional(),
  /** Per tool, the arguments one of its calls must match (an array: each entry by a different call). */
  args: z
    .record(ToolName, z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).min(1)]))
    .optional(),
  /** The turn must ask the customer a question and propose no write. */
  clarify: z.literal(true).optional(),
  /** At least one of these article ids must be in the top 5 the retrieve step found. */
  retrieved_any: z
    .array(z.string().regex(/^kb-[a-z0-9-]+$/))
    .min(1)
    .optional(),
  ...ReplyChecks,
};

// The runner reads the end state (approving the turn's writes for it) from the turn's own
// `rows`/`no_rows`, never from inside an alternative, so an alternative may not name one.
const NO_END_STATE = 'a one_of alternative cannot check the end state (rows, no_rows)';

/** One alternative of `expect.one_of`: every check of an expectation but the end state. */
const ExpectationAlternativeSchema = z
  .object({
    ...ExpectationFields,
    rows: z.never({ error: NO_END_STATE }).optional(),
    no_rows: z.never({ error: NO_END_STATE }).optional(),
    one_of: z.never({ error: 'a one_of alternative cannot hold another one_of' }).optional(),
  })
  .strict();

export const TurnExpectSchema = z
  .object({
    ...ExpectationFields,
    /**
     * The end state after the turn's writes were decided (by `decide`, or, when the turn has none,
     * by approving every write it proposed): each row must match a row of its table (partially,
     * like `args`), and no row may match a `no_rows` entry.
     */
    rows: RowSets.optional(),
    no_rows: RowSets.optional(),
    /**
     * Alternatives over the whole expectation: the turn passes when it meets any one completely,
     * and its tool, argument, false-action and clarification metrics are counted against that one
     * (the first that matched, or the first when none did). It stands alone in `expect`.
     */
    one_of: z.array(ExpectationAlternativeSchema).min(2).optional(),
  })
  .strict()
  .refine((e) => e.one_of === undefined || Object.keys(e).length === 1, {
    message: 'one_of stands alone: put every other check inside its alternatives',
  });

export const DecideSchema = z
  .object({
    decision: z.enum(['approve', 'reject']),
    /** Which of the approvals proposed in this turn to decide (by tool); default: all of them. */
    tool: ToolName.optional(),
    /** A manager's edit, merged over the proposed arguments (top-level keys replaced). */
    args: z.record(z.string(), z.unknown()).optional(),
    reason: z.string().min(1).optional(),
    expect: z
      .object({
        ...ReplyChecks,
        /** true: the write ran (approval executed); false: nothing was written. */
        executed: z.boolean().optional(),
      })
      .strict(),
  })
  .strict()
  .refine((d) => d.decision === 'approve' || d.args === undefined, {
    message: 'only an approval can edit the arguments',
  });

export const TurnSchema = z
  .object({
    message: z.string().min(1).max(4000),
    expect: TurnExpectSchema,
    /** One decision for the turn's proposals, or several (each by `tool`), e.g. approve one, reject another. */
    decide: z.union([DecideSchema, z.array(DecideSchema).min(1)]).optional(),
  })
  .strict();

/** A turn's decisions as a list (none, one, or several). */
export const decisionsOf = (t: Pick<Turn, 'decide'>): Decide[] =>
  t.decide === undefined ? [] : Array.isArray(t.decide) ? t.decide : [t.decide];

export const CaseSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, 'lower-case id, letters, digits, _ . -'),
    kind: z.enum(CASE_KINDS),
    /** The conversation's verified customer; null = an unlinked Slack user. */
    customer: z
      .string()
      .regex(/^cus_\d{3}$/)
      .nullable(),
    /** Why the case exists (what makes it hard), for the reader of a failure. */
    note: z.string().optional(),
    /** The case's clock (default: the eval clock, Monday 2026-12-07 09:00 New York); not before it. */
    now: IsoInstant.optional(),
    /**
     * "all": run the case from each of the 7 days starting at the eval clock's date (Monday to
     * Sunday), at `now`'s time of day (default 09:00); each run is its own result, id `<id>@mon`….
     */
    weekdays: z.literal('all').optional(),
    turns: z.array(TurnSchema).min(1),
  })
  .strict();

export const CaseFileSchema = z.array(CaseSchema).min(1);

export type TurnExpect = z.infer<typeof TurnExpectSchema>;
/** One set of checks a turn is scored against: its `expect`, or one `one_of` alternative of it. */
export type Expectation = Omit<TurnExpect, 'one_of' | 'rows' | 'no_rows'>;
export type ReplyFromArticle = z.infer<typeof ReplyFromArticleSchema>;
export type Decide = z.infer<typeof DecideSchema>;
export type Turn = z.infer<typeof TurnSchema>;
export type EvalCase = z.infer<typeof CaseSchema>;
export type CaseKind = (typeof CASE_KINDS)[number];

export class CaseFileError extends Error {
  constructor(
    readonly file: string,
    readonly issues: string[],
  ) {
    super(`${file}:\n${issues.map((i) => `  ${i}`).join('\n')}`);
    this.name = 'CaseFileError';
  }
}

/** Parse one file's JSON text; throws CaseFileError with every issue. */
export function parseCaseFile(text: string, file = '(inline)'): EvalCase[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CaseFileError(file, [`not valid JSON: ${(err as Error).message}`]);
  }
  const r = CaseFileSchema.safeParse(raw);
  if (!r.success) {
    throw new CaseFileError(
      file,
      r.error.issues.map((i) => {
        const at = i.path.map(String).join('.');
        const id =
          typeof i.path[0] === 'number' && Array.isArray(raw) ? (raw[i.path[0]] as { id?: unknown })?.id : undefined;
        return `${id ? `[${String(id)}] ` : ''}${at}: ${i.message}`;
      }),
    );
  }
  return r.data;
}

/** Every `*.json` under a file or folder (sorted), validated; ids must be unique across files. */
export function loadCases(target: string): EvalCase[] {
  const files = statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => path.join(target, f))
    : [target];
  if (!files.length) throw new CaseFileError(target, ['no .json case files found']);
  const all: EvalCase[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const cases = parseCaseFile(readFileSync(file, 'utf8'), file);
    const dupes: string[] = [];
    for (const c of cases) {
      if (seen.has(c.id)) dupes.push(`duplicate case id "${c.id}" (also in ${seen.get(c.id)})`);
      seen.set(c.id, file);
    }
    if (dupes.length) throw new CaseFileError(file, dupes);
    all.push(...cases);
  }
  return all;
}
