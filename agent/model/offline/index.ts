export { OfflinePlanner, toolNameOf, type OfflinePlannerFields } from './model.js';
export {
  planTurn,
  toAIMessage,
  toolCallId,
  DEFAULT_TIME_ZONE,
  type PlannedCall,
  type PlannedTurn,
  type PlanOptions,
} from './planner.js';
export { detectCues, type Cues } from './analysis/cues.js';
export { extractWhen, isoInZone, localToIso, resolveBareHour, type WhenMention } from './analysis/when.js';
export { matchServices } from './analysis/services.js';
export {
  extractAddress,
  extractEmails,
  extractPhones,
  extractPreferences,
  extractNameChange,
  triage,
  reportsProblem,
  visitNotes,
} from './analysis/entities.js';
export { OFFLINE_META_KEY, type Offer, type OfflineMeta } from './conversation.js';
