export { startLocalSlack } from './server.js';
export { attachToLocalSlack, type AttachedWorkspace } from './attach.js';
export { signSlackRequest, type SlackSignatureHeaders } from './signing.js';
export {
  MAX_MESSAGE_TEXT,
  slackError,
  type SlackError,
  type Surface,
  validateBlocks,
  validateMessageContent,
  validateView,
} from './block-kit.js';
export { type Rate, type RateLimitOptions, SLACK_POST_MESSAGE_PER_CHANNEL, SLACK_TIERS } from './rate-limits.js';
export { CONNECTION_TROUBLE } from './interactions.js';
export { REQUIRED_MESSAGE } from './interaction-state.js';
export type {
  ApiCallRecord,
  Block,
  DeliveryRecord,
  ForgeOpts,
  LocalSlack,
  LocalSlackLogger,
  LocalSlackOptions,
  LocalSlackTiming,
  LocalSlackUser,
  PostResult,
  StoredMessage,
  StoredView,
  SubmitOutcome,
  SubmitResult,
  ViewStateValue,
  ViewStateValues,
} from './types.js';
