export { ToolNames } from '@tessera/provider-utils';
export { toModelError } from './errors.ts';
export type { ModelPrice, ModelSettings, OpenAIProviderOptions } from './options.ts';
export { createOpenAIProvider } from './provider.ts';
export { functionParameters } from './strict-schema.ts';
export { encodingOf, estimateOpenAITokens, tokenizerReady } from './token-estimate.ts';
