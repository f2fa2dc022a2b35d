import type { Output } from '../api.ts';

const WHAT = {
  input: 'your message',
  steering: 'your message',
  response: "the model's answer (its tool calls did not run)",
} as const;

/** Where a guardrail tripped: what it blocked stays on screen, and the model never reads it again. */
export function GuardrailNote({ output }: { output: Output }) {
  const key = String(output.target);
  const target = Object.hasOwn(WHAT, key) ? WHAT[key as keyof typeof WHAT] : 'a message';
  return (
    <div className="guardrail-note" role="note">
      <span className="guardrail-label">
        Blocked by the {String(output.guardrail)} guardrail of {String(output.plugin)}
      </span>
      <p>{String(output.reason)}</p>
      <p className="guardrail-withheld">The model will not see {target} again.</p>
    </div>
  );
}
