import { z } from 'zod';
import { ApprovalInputError, errorMessage, HookError, TesseraError } from '../errors.ts';
import type { PromptOutputToolResult, ToolApproval, ToolOutput } from '../model/outputs.ts';
import type { AnyPlugin, OfferedTool } from '../plugins/define-plugin.ts';
import type { PermissionVerdict, ToolCallView } from '../plugins/hooks.ts';
import type { AnyTool } from '../tools/create-tool.ts';
import type { HookScope, HookTable } from './hook-table.ts';
import type { Round } from './round-caches.ts';
import { answeredResult } from './tool-calls.ts';
import { toolError } from './tool-result.ts';

/**
 * Everything about whether a tool call may run, in one place: validation, plugins' `beforeToolCall` hooks
 * and permission policies, the tool's `requireApproval`, and the user's decision on a pending call.
 */

/** The arguments a call runs with when a hook or the approving user changed the model's. */
export type Edit = Pick<ToolOutput, 'editedInput' | 'editedBy' | 'editors'>;

/** Who edited a call's arguments before, in order (a record written before `editors` names only the last). */
const editorsOf = (call: Edit): string[] => call.editors ?? (call.editedBy ? [call.editedBy] : []);

/** A call's edit by one more editor, after those before it. */
const editedBy = (before: Edit | undefined, input: unknown, editor: string): Edit => ({
  editedInput: input,
  editedBy: editor,
  editors: [...(before ? editorsOf(before) : []), editor],
});

export type Decision =
  /** Not run: this result is recorded (a validation error, a denial, a hook's skip or failure). */
  | { kind: 'record'; result: PromptOutputToolResult; input: unknown; edit?: Edit }
  /** `input` is the model's (validated), `runWith` what the call runs with (edited by a hook, or the same). */
  | { kind: 'pending'; reason: string; input: unknown; runWith: unknown; offered: OfferedTool; edit?: Edit }
  | { kind: 'invoke'; input: unknown; runWith: unknown; offered: OfferedTool; edit?: Edit };

export type DecideContext = {
  userId: string;
  stateOf: (offered: OfferedTool) => unknown;
  hooks: HookTable;
  scope: HookScope;
  /** Publishes a hook's failure; what it leads to is in the decision. */
  hookFailed: (error: HookError, toolCallId: string) => void;
};

const schemaProblems = (tool: AnyTool, input: unknown) => {
  const parsed = tool.input.safeParse(input);
  return parsed.success
    ? { data: parsed.data as unknown }
    : { problems: z.prettifyError(parsed.error), data: undefined };
};

const refuse = (call: ToolOutput, code: 'unknown_tool' | 'invalid_arguments', message: string): Decision => ({
  kind: 'record',
  input: call.input,
  result: toolError(code, message),
});

/**
 * Validation before anything runs, then who may let it run: the tool must be offered this round and its
 * arguments must parse and match its schema; `beforeToolCall` hooks may edit them (validated again), skip the
 * call or ask for approval; permission policies allow, deny or ask; otherwise `requireApproval` decides. A
 * check that throws asks for approval (failing closed); a hook that throws fails the call. A promise only
 * when something may take time (hooks, policies, a `requireApproval` function): most calls cost no await.
 */
export function decide(call: ToolOutput, round: Round, context: DecideContext): Decision | Promise<Decision> {
  const offered = round.tools.get(call.toolId);
  if (!offered) {
    const available = [...round.tools.keys()].join(', ') || 'none';
    const message = `There is no tool '${call.toolId}' in this round. Available tools: ${available}.`;
    return refuse(call, 'unknown_tool', message);
  }
  if (call.arguments !== undefined) {
    return refuse(
      call,
      'invalid_arguments',
      `The arguments are not valid JSON: ${call.arguments.slice(0, 200)}`,
    );
  }
  const checked = schemaProblems(offered.tool, call.input);
  if (checked.problems !== undefined) {
    const message = `The arguments do not match the schema of '${call.toolId}':\n${checked.problems}`;
    return refuse(call, 'invalid_arguments', message);
  }
  const { hooks } = context;
  // Without plugins' hooks and policies (most apps), and a tool that asks for no approval, nothing to ask.
  if (hooks.beforeToolCall.length === 0 && hooks.permissions.length === 0 && !offered.tool.requireApproval)
    return { kind: 'invoke', input: checked.data, runWith: checked.data, offered };
  return decideWithPlugins(call, offered, checked.data, context);
}

/** `beforeToolCall` hooks, then permission policies, then (if they leave it open) the tool's own check. */
async function decideWithPlugins(
  call: ToolOutput,
  offered: OfferedTool,
  valid: unknown,
  context: DecideContext,
): Promise<Decision> {
  const hooked: Hooked =
    context.hooks.beforeToolCall.length > 0
      ? await runBeforeToolCall(call, offered, valid, context)
      : { kind: 'hooked', input: valid };
  if (hooked.kind === 'record') return hooked;
  const { input, edit } = hooked;
  const verdict = context.hooks.permissions.length > 0 ? await permission(call, input, context) : undefined;
  if (verdict?.decision === 'deny') {
    const because = verdict.reason ? `: ${verdict.reason}` : '.';
    const result = toolError('denied', `Not run: a permission policy denies '${call.toolId}'${because}`);
    return { kind: 'record', input: valid, edit, result };
  }
  let reason = hooked.ask ?? (verdict?.decision === 'ask' ? (verdict.reason ?? '') : undefined);
  if (reason === undefined && verdict?.decision !== 'allow')
    reason = await approvalReason(call, offered, input, context);
  const ready = { input: valid, runWith: input, offered, edit };
  return reason === undefined
    ? { kind: 'invoke', ...ready }
    : { kind: 'pending', reason: reason || defaultReason(call), ...ready };
}

const defaultReason = (call: ToolOutput) => `'${call.toolId}' needs your approval before it runs.`;

/** The tool's own `requireApproval`, with the input the call would run with: why it needs approval, if it does. */
async function approvalReason(
  call: ToolOutput,
  offered: OfferedTool,
  input: unknown,
  context: DecideContext,
): Promise<string | undefined> {
  const check = offered.tool.requireApproval;
  if (!check) return undefined;
  try {
    const requirement =
      typeof check === 'function'
        ? await check({ input, userId: context.userId, state: context.stateOf(offered) })
        : check;
    return requirement.required ? (requirement.reason ?? '') : undefined;
  } catch (error) {
    return `${defaultReason(call)} (The approval check failed: ${errorMessage(error)})`;
  }
}

type Hooked =
  | { kind: 'hooked'; input: unknown; edit?: Edit; ask?: string }
  | Extract<Decision, { kind: 'record' }>;

/** Each plugin's `beforeToolCall` in order, each seeing the arguments the previous one left. */
async function runBeforeToolCall(
  call: ToolOutput,
  offered: OfferedTool,
  validInput: unknown,
  context: DecideContext,
): Promise<Hooked> {
  let input = validInput;
  let edit: Edit | undefined;
  let ask: string | undefined;
  for (const entry of context.hooks.beforeToolCall) {
    const view: ToolCallView = { id: call.id, toolId: call.toolId, input };
    try {
      const result = await context.scope.call(entry, { call: view });
      if (!result) continue;
      if ('skip' in result) {
        const skipped: PromptOutputToolResult =
          'error' in result.skip
            ? toolError('skipped', String(result.skip.error))
            : { type: 'success', output: result.skip.output ?? null };
        return { kind: 'record', input: call.input, edit, result: skipped };
      }
      if ('requireApproval' in result) ask ??= String(result.requireApproval ?? '');
      else if ('input' in result) {
        const checked = schemaProblems(offered.tool, result.input);
        if (checked.problems !== undefined) {
          throw new HookError(
            entry.plugin.id,
            entry.name,
            `its arguments do not match the schema of '${call.toolId}':\n${checked.problems}`,
          );
        }
        input = checked.data;
        edit = editedBy(edit, input, `plugin:${entry.plugin.id}`);
      }
    } catch (error) {
      if (!HookError.is(error)) throw error; // the run was aborted
      context.hookFailed(error, call.id);
      return {
        kind: 'record',
        input: call.input,
        edit,
        result: toolError('hook_failed', `Not run: ${error.message}`),
      };
    }
  }
  return { kind: 'hooked', input, edit, ask };
}

const STRICTNESS = { allow: 0, ask: 1, deny: 2 } as const;

/** The strictest verdict of the permission policies (a policy that throws asks), or none. */
async function permission(
  call: ToolOutput,
  input: unknown,
  context: DecideContext,
): Promise<{ decision: 'allow' | 'deny' | 'ask'; reason?: string } | undefined> {
  let strictest: { decision: 'allow' | 'deny' | 'ask'; reason?: string } | undefined;
  for (const entry of context.hooks.permissions) {
    let verdict: PermissionVerdict | undefined;
    try {
      verdict = await context.scope.call(entry, { call: { id: call.id, toolId: call.toolId, input } });
    } catch (error) {
      if (!HookError.is(error)) throw error;
      context.hookFailed(error, call.id);
      verdict = {
        decision: 'ask',
        reason: `The permission check of '${entry.plugin.id}' failed: ${errorMessage(error.cause)}`,
      };
    }
    const normal = typeof verdict === 'string' ? { decision: verdict } : verdict;
    if (!normal || !(normal.decision in STRICTNESS)) continue;
    if (!strictest || STRICTNESS[normal.decision] > STRICTNESS[strictest.decision]) strictest = normal;
  }
  return strictest;
}

/** The arguments a call runs with: edited ones if a hook or the approving user changed the model's. */
export const runInput = (call: ToolOutput): unknown =>
  'editedInput' in call && call.editedInput !== undefined ? call.editedInput : call.input;

/**
 * The input an approved call resumes with, validated again by the tool offered now: it may have changed, or
 * gone, since the call was approved.
 */
export function approvedInput(
  call: ToolOutput,
  round: Round,
): { input: unknown; offered: OfferedTool } | PromptOutputToolResult {
  const offered = round.tools.get(call.toolId);
  const checked = offered && schemaProblems(offered.tool, runInput(call));
  if (!offered || !checked || checked.problems !== undefined) {
    return toolError(
      'unknown_tool',
      `'${call.toolId}' is no longer available, so the approved call was not run.`,
    );
  }
  return { input: checked.data, offered };
}

/** The user's decision on a pending call: exactly one of `approve`, `answer` and `skip` (`checkCallDecision`). */
export type CallDecision = {
  userId: string;
  approve?: boolean;
  answer?: unknown;
  skip?: boolean;
  reason?: string;
  input?: unknown;
};

/** A call decision checked by `checkCallDecision`: which one it is, an answer already made its result. */
export type CheckedCallDecision = { userId: string; reason?: string } & (
  | { kind: 'approve'; approve: boolean; input?: unknown }
  | { kind: 'answer'; result: PromptOutputToolResult }
  | { kind: 'skip' }
);

/**
 * Which decision `decision` is, checked before anything is read or written: exactly one of `approve` (a
 * boolean), `answer` (a value JSON stores, within MAX_RESULT_RECORD_CHARS) and `skip` (`true`); `input` only
 * with `approve`.
 *
 * @throws {TesseraError} `invalid_input` otherwise (the call still waits).
 */
export function checkCallDecision(decision: CallDecision): CheckedCallDecision {
  const given = (['approve', 'answer', 'skip'] as const).filter((key) => decision[key] !== undefined);
  if (given.length !== 1) {
    throw new TesseraError(
      'invalid_input',
      `A decision on a tool call gives exactly one of approve, answer and skip${given.length ? `, not ${given.join(' and ')}` : ''}.`,
    );
  }
  const kind = given[0]!;
  if (kind === 'approve' && typeof decision.approve !== 'boolean')
    throw new TesseraError('invalid_input', 'approve is true (run the call) or false (reject it).');
  if (kind === 'skip' && decision.skip !== true)
    throw new TesseraError('invalid_input', 'skip is true when given.');
  if (kind !== 'approve' && decision.input !== undefined)
    throw new TesseraError('invalid_input', `Edited arguments (input) go with approve, not ${kind}.`);
  if (decision.reason !== undefined && typeof decision.reason !== 'string')
    throw new TesseraError('invalid_input', 'reason is a text.');
  const by = { userId: decision.userId, ...(decision.reason && { reason: decision.reason }) };
  if (kind === 'answer') return { ...by, kind, result: answeredResult(decision.answer) };
  if (kind === 'skip') return { ...by, kind };
  return {
    ...by,
    kind,
    approve: decision.approve === true,
    ...(decision.input !== undefined && { input: decision.input }),
  };
}

const DECIDED = { approve: 'approved', answer: 'answered', skip: 'skipped' } as const;

/**
 * A pending call with the user's decision recorded in place: approved (marked started, with the edited
 * arguments if any, checked here by the tool's schema), rejected (an error result the model reads), answered
 * (the user's value as its result, the tool not run) or skipped (an error `skipped`, the tool not run).
 *
 * @throws {ApprovalInputError} when edited arguments do not match `tool`'s schema.
 */
export function decidedCall(
  output: ToolOutput,
  decision: CheckedCallDecision,
  tool: AnyTool | undefined,
  at: string,
): ToolOutput {
  const approval: ToolApproval = {
    reason: output.result?.type === 'pending' ? output.result.reason : '',
    ...output.approval,
    decision: decision.kind === 'approve' && !decision.approve ? 'rejected' : DECIDED[decision.kind],
    decidedBy: decision.userId,
    decidedAt: at,
    ...(decision.reason && { comment: decision.reason }),
  };
  const said = decision.reason ? ` The user said: ${decision.reason}` : '';
  if (decision.kind === 'answer') return { ...output, result: decision.result, approval, endedAt: at };
  if (decision.kind === 'skip') {
    const message = `The user chose to skip this call, so it was not run. Go on without its result.${said}`;
    return { ...output, result: toolError('skipped', message), approval, endedAt: at };
  }
  if (!decision.approve) {
    const message =
      'The user did not approve this call, so it was not run. Do not retry it unchanged; ask the user or try another way.' +
      said;
    return { ...output, result: toolError('rejected', message), approval, endedAt: at };
  }
  const { result: _, ...unstarted } = output;
  if (decision.input === undefined) return { ...unstarted, approval, startedAt: at };
  const checked = tool
    ? schemaProblems(tool, decision.input)
    : { problems: `'${output.toolId}' is not available.`, data: undefined };
  if (checked.problems !== undefined)
    throw new ApprovalInputError(output.id, output.toolId, checked.problems);
  return { ...unstarted, approval, ...editedBy(output, checked.data, decision.userId), startedAt: at };
}

/** The static tool `toolId` of the plugins, if one offers it in every round (most tools). */
export const staticTool = (plugins: readonly AnyPlugin[], toolId: string): AnyTool | undefined => {
  for (const plugin of plugins) for (const tool of plugin.tools) if (tool.id === toolId) return tool;
  return undefined;
};
