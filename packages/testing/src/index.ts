export { describePrompt, outputsOf, pendingCall, toolResult } from './prompt-readers.ts';
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
export {
  createTestPlatform,
  type InvokeToolOptions,
  invokeTool,
  memoryState,
  type TestPlatform,
  type TestPlatformOptions,
} from './test-platform.ts';
