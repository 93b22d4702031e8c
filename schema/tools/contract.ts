import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

// zod objects, possibly carrying refinements (still ZodObject in zod 4).
export type AnyObject = z.ZodObject<z.ZodRawShape>;

/**
 * What every side agrees on about one tool, without its implementation: the tool server joins a
 * handler to it, the agent routes by `mutating`, the bot renders cards and edit forms from it.
 */
interface ContractBase<N extends string, I extends AnyObject, O extends AnyObject> {
  name: N;
  title: string;
  /** Written for the model: when to use it, what it needs, what it returns. */
  description: string;
  input: I;
  output: O;
  annotations: Omit<ToolAnnotations, 'title'>;
  /** Plain words for people (approval cards, audit): "Book a visit". */
  verb: string;
  /**
   * Input fields the agent's model is not shown (each plan call pays for every declared field):
   * ones a customer conversation never sets, where the server's default or the record on file
   * applies. MCP clients still see the full schema.
   */
  modelOmits?: readonly string[];
}

export interface ReadContract<
  N extends string = string,
  I extends AnyObject = AnyObject,
  O extends AnyObject = AnyObject,
> extends ContractBase<N, I, O> {
  mutating: false;
  /**
   * Its results hold nobody's personal data (the help centre): a reply built on it alone may be
   * posted where other customers read. Any other tool reads or changes a customer's record.
   */
  publicData?: true;
}

/** A write: runs only through the approval gate. */
export interface WriteContract<
  N extends string = string,
  I extends AnyObject = AnyObject,
  O extends AnyObject = AnyObject,
> extends ContractBase<N, I, O> {
  mutating: true;
}

export type ToolContract = ReadContract | WriteContract;

export const readTool = <N extends string, I extends AnyObject, O extends AnyObject>(
  t: Omit<ReadContract<N, I, O>, 'mutating' | 'annotations'> & { annotations?: ReadContract['annotations'] },
): ReadContract<N, I, O> => ({
  ...t,
  mutating: false,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
    ...t.annotations,
  },
});

export const writeTool = <N extends string, I extends AnyObject, O extends AnyObject>(
  t: Omit<WriteContract<N, I, O>, 'mutating'>,
): WriteContract<N, I, O> => ({ ...t, mutating: true, annotations: { readOnlyHint: false, ...t.annotations } });
