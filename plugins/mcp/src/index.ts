export { type ToolHints, type ToolPolicy, toolPolicy } from './approval.ts';
export { INLINE_TEXT_CHARS } from './content.ts';
export { McpServerUnavailableError, McpToolError } from './errors.ts';
export { jsonSchemaInput } from './json-schema-input.ts';
export {
  ApprovalMode,
  McpOptions,
  type McpOptionsInput,
  type McpSettings,
  type ServerSettings,
} from './options.ts';
/** The plugin factory, for config files that name the package: `{ "package": "@tessera/plugin-mcp", "options": {...} }`. */
export { MCP_PLUGIN_ID, mcpPlugin, mcpPlugin as default } from './plugin.ts';
export { type McpProgressOutput, mcpProgress } from './progress.ts';
export { ConnectionState, McpServerStatus, type McpServers, McpServersToken } from './status.ts';
export { toolIds } from './tool-names.ts';
