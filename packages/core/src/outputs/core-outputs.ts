import {
  GuardrailOutput,
  PauseOutput,
  ReasoningOutput,
  SteeringOutput,
  TextOutput,
  type ToolOutput,
  ToolOutput as ToolOutputSchema,
} from '../model/outputs.ts';
import { assistantMessage, type ModelMessage } from '../provider/messages.ts';
import { boundArguments, boundText } from './bounds.ts';
import type { AnyOutputVariant, OutputVariant, ProjectionContext } from './define-output.ts';
import { withheldNote } from './withheld.ts';

const stringify = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
};

const errorText = (error: unknown): string => {
  if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  return stringify(error);
};

/** What the model reads of a call the user answered instead of letting the tool run: a note, then the value. */
function answeredText(output: ToolOutput, answer: unknown): string {
  const said = output.approval?.comment ? ` The user said: ${output.approval.comment}` : '';
  return `The user answered this call instead of running the tool (it did not run); use their answer as its result.${said}\nThe user's answer: ${stringify(answer)}`;
}

/** What the model reads as a tool call's result; every state, including none yet, gives some text. */
export function toolResultText(output: ToolOutput): string {
  const { result } = output;
  if (!result) {
    return output.startedAt
      ? 'No result: the call was interrupted before it finished. It may or may not have taken effect.'
      : 'No result: the call was never run.';
  }
  switch (result.type) {
    case 'success':
      // The user answered the call in the tool's place: the model must know the tool did not run.
      if (output.approval?.decision === 'answered') return answeredText(output, result.output);
      return stringify(result.output);
    case 'error':
      return `Error: ${errorText(result.error)}`;
    case 'pending':
      return `Waiting for the user's approval: ${result.reason}`;
  }
}

/** What the model reads for a call: the rewritten result when an `afterToolCall` hook gave one. */
const shownResult = (output: ToolOutput): string =>
  toolResultText(output.rewrittenResult ? { ...output, result: output.rewrittenResult } : output);

const projectTool = (output: ToolOutput, context: ProjectionContext): ModelMessage[] => [
  {
    type: 'function_call',
    callId: output.callId,
    name: output.toolId,
    // Bounded like results: a model that wrote a huge file must not be sent it again every round.
    arguments:
      output.arguments !== undefined
        ? boundText(output.arguments, context.maxChars)
        : boundArguments(
            (output.editedInput !== undefined ? output.editedInput : output.input) ?? {},
            context.maxChars,
          ),
    ...(output.responseId && { responseId: output.responseId }),
  },
  { type: 'function_call_output', callId: output.callId, output: context.bound(shownResult(output)) },
];

/** A variant of core's own: its projection takes what its schema parses (checked here, where it is written). */
const variant = <TType extends string, T>(definition: OutputVariant<TType, T>): AnyOutputVariant =>
  definition;

/** The variants core itself records. Everything else comes from plugins through the same mechanism. */
export const coreOutputs: readonly AnyOutputVariant[] = [
  variant({
    type: 'text',
    schema: TextOutput,
    // A refusal goes back as what the model said: the model should know it refused.
    project: (output) =>
      output.text
        ? [
            output.responseId
              ? { type: 'message', role: 'assistant', content: output.text, responseId: output.responseId }
              : assistantMessage(output.text),
          ]
        : [],
  }),
  variant({ type: 'tool', schema: ToolOutputSchema, project: projectTool }),
  variant({
    type: 'reasoning',
    schema: ReasoningOutput,
    project: (output) => [
      {
        type: 'reasoning',
        summary: output.summary,
        ...(output.text !== undefined && { text: output.text }),
        providerData: output.providerData,
        ...(output.responseId && { responseId: output.responseId }),
      },
    ],
  }),
  // A pause is the user's business; what they decided shows in what the loop does next.
  variant({ type: 'pause', schema: PauseOutput, project: 'skip' }),
  variant({
    type: 'steering',
    schema: SteeringOutput,
    project: (output) => [{ type: 'message', role: 'user', content: output.text }],
  }),
  // In place of what it withheld, which the projection leaves out (see withheld.ts).
  variant({ type: 'guardrail', schema: GuardrailOutput, project: (output) => [withheldNote(output)] }),
];
