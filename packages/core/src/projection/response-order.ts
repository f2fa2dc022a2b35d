import type { ModelMessage } from '../provider/messages.ts';

/**
 * Reads projected messages one by one and tells when one is out of the order `appendGrouped` makes: an item
 * of a response after something the response holds back (its calls' results, what they emitted), or a
 * result after something emitted. What it has read is kept, so a projection that only grows between rounds
 * reads only its new messages (see PromptProjection).
 */
export class ResponseOrder {
  #response: string | undefined;
  readonly #calls: string[] = [];
  #heldResults = false;
  #heldEmitted = false;

  /** Takes the next message; false when `appendGrouped` would move it (the order scan then stops). */
  next(message: ModelMessage): boolean {
    const id = message.type === 'function_call_output' ? undefined : message.responseId;
    if (id !== undefined) {
      if (id !== this.#response) {
        this.#response = id;
        this.#calls.length = 0;
        this.#heldResults = this.#heldEmitted = false;
      } else if (this.#heldResults || this.#heldEmitted) return false;
      if (message.type === 'function_call') this.#calls.push(message.callId);
    } else if (this.#response === undefined) {
      // passes through where it is
    } else if (message.type === 'function_call_output' && this.#calls.includes(message.callId)) {
      if (this.#heldEmitted) return false;
      this.#heldResults = true;
    } else if (message.type === 'message' && message.role === 'user') {
      this.#response = undefined;
      this.#heldResults = this.#heldEmitted = false;
    } else this.#heldEmitted = true;
    return true;
  }

  /** Takes `messages` from `start` on; false as soon as one is out of order. */
  all(messages: readonly ModelMessage[], start = 0): boolean {
    for (let i = start; i < messages.length; i++) if (!this.next(messages[i]!)) return false;
    return true;
  }
}
