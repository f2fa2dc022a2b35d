export { toModelError } from './errors.ts';
export type {
  AISDKLanguageModel,
  AISDKModelSettings,
  AISDKProviderOptions,
  AISDKProviderOptionsByProvider,
  ModelPrice,
} from './options.ts';
export { type AISDKModelProvider, createAISDKProvider } from './provider.ts';
export { ToolNames } from './tool-names.ts';
