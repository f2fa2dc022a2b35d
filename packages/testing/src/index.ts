export { describePrompt, outputsOf, pendingCall, toolError, toolResult } from './prompt-readers.ts';
export { sampleConversation, samplePrompt, sampleTime } from './sample-records.ts';
export {
  assertWellFormed,
  callTool,
  callTools,
  reply,
  type ScriptedCall,
  ScriptedModel,
  type ScriptedReply,
  type ScriptedTurn,
  scriptedModel,
} from './scripted-model.ts';
export { type StoredState, seedState } from './seed-state.ts';
export { ProcessStopped, type StoppingStore, stoppingStore } from './stopping-store.ts';
export {
  createTestPlatform,
  type InvokeToolOptions,
  invokeTool,
  memoryState,
  type TestPlatform,
  type TestPlatformOptions,
} from './test-platform.ts';
