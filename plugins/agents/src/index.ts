export {
  AGENT_NAME,
  AGENT_TOOL_PREFIX,
  type Agent,
  AgentOptions,
  agentToolId,
  defineAgent,
  MAX_TASK_CHARS,
} from './agent.ts';
export { type AgentRunOutput, agentRunOutput } from './agent-run-output.ts';
export {
  type ChainResult,
  type ConsolidateResult,
  chain,
  consolidate,
  type DelegateOptions,
  delegate,
  type GroupOptions,
} from './code.ts';
export { AGENTS_PLUGIN_ID, type AgentsPluginOptions, agentsPlugin, DEFAULT_MAX_DEPTH } from './plugin.ts';
/** A plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-agents", "options": {...} }`. */
export { agentsPluginFactory as default } from './plugin-factory.ts';
export { AgentRegistry, registryOf } from './registry.ts';
export {
  type AgentMetadata,
  type AgentRun,
  type AgentToolResult,
  childPromptId,
  MAX_ANSWER_CHARS,
  MAX_SUMMARY_CHARS,
  type ParentCall,
} from './run.ts';
