import type { Approval } from './approvals/ledger.js';
import type { Reply } from './reply.js';

/**
 * How the agent reaches the place its conversations live (Slack for the bot). Given to the
 * service at construction; the service itself delivers every reply and marks it delivered only
 * after `deliver` resolved, so a failure leaves it in the outbox for the sweeper.
 */
export interface DeliveryPort {
  /**
   * Put these replies in the conversation. Resolve only once the customer can see them. A reply
   * marked `personal` must reach the customer privately where others can read the conversation
   * (promise 9); the port knows where that is, the agent only marks what each reply holds.
   */
  deliver(threadId: string, replies: Reply[]): Promise<void>;
  /** Approvals whose status changed (new, decided, done, expired): their cards to post or update. */
  approvalsChanged(approvals: Approval[]): Promise<void>;
  /** Run on every sweep: the channel's own unfinished intake (the bot: messages whose worker died). */
  catchUp?(): Promise<void>;
  /**
   * True when the conversation has nowhere to post to (`deliver` would do nothing): its replies are
   * delivered by being stored, so they are recorded delivered, with no mark after the delivery.
   */
  storesOnly?(threadId: string): boolean;
}

/** No channel to post to (API conversations, evals): a reply is delivered by being stored. */
export const storedDelivery: DeliveryPort = {
  deliver: async () => undefined,
  approvalsChanged: async () => undefined,
  storesOnly: () => true,
};

/**
 * A port connected after the service is built, because the bot needs the service to exist
 * first. Unconnected it behaves as `storedDelivery`, as the product does without Slack.
 */
export class DeliveryRelay implements DeliveryPort {
  private target: DeliveryPort = storedDelivery;

  /** Route through `port` from now on (connect before the channel starts taking requests). */
  connect(port: DeliveryPort): void {
    this.target = port;
  }

  /** Back to `storedDelivery`, once the channel has stopped. */
  disconnect(): void {
    this.target = storedDelivery;
  }

  deliver(threadId: string, replies: Reply[]): Promise<void> {
    return this.target.deliver(threadId, replies);
  }

  approvalsChanged(approvals: Approval[]): Promise<void> {
    return this.target.approvalsChanged(approvals);
  }

  async catchUp(): Promise<void> {
    await this.target.catchUp?.();
  }

  storesOnly(threadId: string): boolean {
    return this.target.storesOnly?.(threadId) ?? false;
  }
}
