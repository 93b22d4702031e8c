import { BaseChatModel, type BaseChatModelParams } from '@langchain/core/language_models/chat_models';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

export type Script = (messages: BaseMessage[]) => AIMessage;

/**
 * A chat model whose every reply is computed by a test function from the messages it receives:
 * graph mechanics (gate, edits, expiry, supersede) are tested independently of any planner.
 * `seen` keeps every input so a test can check what the model was shown.
 */
export class ScriptedModel extends BaseChatModel {
  readonly seen: BaseMessage[][] = [];
  constructor(
    public script: Script,
    params: BaseChatModelParams = {},
  ) {
    super(params);
  }
  _llmType() {
    return 'scripted';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const message = this.script(messages);
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}
