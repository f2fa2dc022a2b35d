import type { Platform } from '@tessera/core';
import type { Logger } from 'pino';

/**
 * Prompts in the log: one line when one starts, one when it ends with its state, stop reason, duration and
 * usage. A failed model call is an error line with what the provider said (the stop reason's message).
 * Never the user's input or the model's text: those are the user's data, read through the API.
 */
export function logPrompts(platform: Platform, log: Logger): () => void {
  return platform.events.subscribe({}, (event) => {
    if (event.type === 'prompt.started') {
      const { prompt } = event;
      log.info(
        {
          promptId: prompt.id,
          conversationId: prompt.conversationId,
          userId: prompt.userId,
          model: prompt.model,
        },
        'prompt started',
      );
    } else if (event.type === 'prompt.resumed') {
      log.info({ promptId: event.promptId, userId: event.userId }, 'prompt resumed');
    } else if (
      event.type === 'prompt.completed' ||
      event.type === 'prompt.failed' ||
      event.type === 'prompt.cancelled'
    ) {
      const { prompt } = event;
      const line = {
        promptId: prompt.id,
        conversationId: prompt.conversationId,
        userId: prompt.userId,
        state: prompt.state,
        stop: prompt.stopReason?.code,
        durationMs: Date.parse(prompt.updatedAt) - Date.parse(prompt.createdAt),
        modelCalls: prompt.usage.modelCalls,
        inputTokens: prompt.usage.inputTokens,
        outputTokens: prompt.usage.outputTokens,
      };
      if (prompt.stopReason?.code === 'model_error')
        log.error({ ...line, cause: prompt.stopReason.message }, 'model call failed');
      else if (prompt.state === 'failed')
        log.warn({ ...line, cause: prompt.stopReason?.message }, 'prompt ended');
      else log.info(line, 'prompt ended');
    }
  });
}
