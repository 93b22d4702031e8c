/*
 * The one door to the demo business for the development tools: the local Slack stand-in's
 * workspace (who the managers and customers are) and the bench's load. The product itself reads
 * the business from the database and schema/business; only seeding (open-database) and these
 * tools know the demo's people.
 */
export { CUSTOMERS as DEMO_CUSTOMERS } from './seed/customers.js';
export { DEMO_MANAGERS, DEMO_SLACK_USERS } from './seed/slack-users.js';
