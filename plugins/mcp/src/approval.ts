import type { ApprovalMode, ServerSettings } from './options.ts';

/** What an MCP server says of a tool (`tools/list` annotations): hints, not promises. */
export type ToolHints = { readOnlyHint?: boolean; destructiveHint?: boolean };

/** How Tessera runs one MCP tool: in parallel and again after a crash (readOnly), and whether a call asks first. */
export type ToolPolicy = { readOnly: boolean; approval: { required: boolean; reason?: string } };

/**
 * The policy of a tool, from its annotations unless the app's config says otherwise (the tool's settings win
 * over the server's). With `approval: 'auto'`, a tool marked read-only, or explicitly not destructive, runs at
 * once; any other asks, since MCP presumes an unannotated tool may be destructive.
 */
export function toolPolicy(
  hints: ToolHints | undefined,
  names: { server: string; tool: string; id: string },
  settings: Pick<ServerSettings, 'approval' | 'tools'>,
): ToolPolicy {
  // The tool's name is the MCP server's: only a setting the app wrote for it counts, never a prototype's key.
  const own = Object.hasOwn(settings.tools, names.tool) ? settings.tools[names.tool] : undefined;
  const readOnly = own?.readOnly ?? hints?.readOnlyHint === true;
  const mode: ApprovalMode = own?.approval ?? settings.approval;
  if (mode === 'never') return { readOnly, approval: { required: false } };
  if (mode === 'always') {
    const whose = own?.approval ? `the tool '${names.tool}'` : `the MCP server '${names.server}'`;
    return {
      readOnly,
      approval: { required: true, reason: `The app's settings for ${whose} ask every time.` },
    };
  }
  if (readOnly || hints?.destructiveHint === false) return { readOnly, approval: { required: false } };
  const reason =
    hints?.destructiveHint === true
      ? `'${names.id}' may change or delete data: the MCP server '${names.server}' marks it destructive.`
      : `'${names.id}' may change data: the MCP server '${names.server}' does not mark it read-only or safe.`;
  return { readOnly, approval: { required: true, reason } };
}
