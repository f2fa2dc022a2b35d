import type { ModelMessage } from '../provider/messages.ts';

type Estimate = (messages: readonly ModelMessage[]) => number;

/**
 * The provider's estimate for `model`, when it has one (else the loop counts about four characters a token).
 * The context's size as a report shows it is `contextTokens` of @tessera/reports.
 */
export function estimatorFor(
  provider: { estimateTokens?(messages: readonly ModelMessage[], model?: string): number },
  model: string,
): Estimate | undefined {
  return provider.estimateTokens && ((messages) => provider.estimateTokens!(messages, model));
}
