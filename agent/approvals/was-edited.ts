import { canonicalJson } from '../../schema/tools/canonical.js';
import type { Approval } from './ledger.js';

/** The manager changed the arguments before approving (both versions are kept in the ledger). */
export const wasEdited = (a: Pick<Approval, 'args' | 'args_original'>) =>
  canonicalJson(a.args) !== canonicalJson(a.args_original);
