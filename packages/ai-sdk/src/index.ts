export { ToolNames } from '@tessera/provider-utils';
export { toModelError } from './errors.ts';
export type {
  AISDKLanguageModel,
  AISDKModelSettings,
  AISDKProviderOptions,
  AISDKProviderOptionsByProvider,
  ModelPrice,
} from './options.ts';
export { type AISDKModelProvider, createAISDKProvider } from './provider.ts';
