export { tracePrompt, tracePrompts } from './prompt-spans.ts';
