import type { Output } from '../api.ts';

const WITHHELD = {
  input: 'The model will not see your message again.',
  steering: 'The model will not see your message again.',
  response: 'The model will not see this answer again; its tool calls did not run.',
} as const;

/** Where a guardrail tripped: what it blocked stays on screen, and the model never reads it again. */
export function GuardrailNote({ output }: { output: Output }) {
  const key = String(output.target);
  const withheld = Object.hasOwn(WITHHELD, key)
    ? WITHHELD[key as keyof typeof WITHHELD]
    : 'The model will not see what it blocked again.';
  return (
    <div className="guardrail-note" role="note">
      <span className="guardrail-label">
        Blocked by the {String(output.guardrail)} guardrail of {String(output.plugin)}
      </span>
      <p>{String(output.reason)}</p>
      <p className="guardrail-withheld">{withheld}</p>
    </div>
  );
}
