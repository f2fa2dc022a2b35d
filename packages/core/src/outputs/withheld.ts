import type { GuardrailOutput, PromptOutput } from '../model/outputs.ts';
import type { Prompt } from '../model/prompt.ts';
import type { ModelMessage } from '../provider/messages.ts';

/** What guardrails withheld from the model in one prompt: its input, steering outputs, model responses. */
export type Withheld = { input: boolean; outputs: Set<string>; responses: Set<string> };

/** What the prompt's `guardrail` outputs withhold; undefined when none tripped (nearly every prompt). */
export function withheldIn(prompt: Prompt): Withheld | undefined {
  let withheld: Withheld | undefined;
  for (const output of prompt.output) {
    if (output.type !== 'guardrail') continue;
    withheld ??= { input: false, outputs: new Set(), responses: new Set() };
    if (output.target === 'input') withheld.input = true;
    else if (output.targetId !== undefined)
      (output.target === 'response' ? withheld.responses : withheld.outputs).add(output.targetId);
  }
  return withheld;
}

/** Whether the model must not read `output`: it is withheld, or part of a withheld response. */
export function isWithheld(output: PromptOutput, withheld: Withheld): boolean {
  if (withheld.outputs.has(output.id)) return true;
  const responseId = (output as { responseId?: string }).responseId;
  return responseId !== undefined && withheld.responses.has(responseId);
}

/** The note the model reads in place of what a guardrail withheld: which guardrail, never what it blocked. */
export function withheldNote(output: GuardrailOutput): ModelMessage {
  const by = `the ${output.guardrail} guardrail of '${output.plugin}'`;
  return output.target === 'response'
    ? { type: 'message', role: 'assistant', content: `[Withheld: this answer was blocked by ${by}.]` }
    : { type: 'message', role: 'user', content: `[Withheld: a message from the user was blocked by ${by}.]` };
}
