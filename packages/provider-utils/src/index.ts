export { requestFetch } from './request-fetch.ts';
export { type RetryErrors, type RetryOptions, withRetries } from './retry.ts';
export { ToolNames } from './tool-names.ts';
