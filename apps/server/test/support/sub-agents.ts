import { defineAgent } from '@tessera/plugin-agents';

/** An agent of a chain: it asks `next`, or, at the bottom, deletes records (the demo tool that needs approval). */
export const level = (name: string, next: string | undefined) =>
  defineAgent({
    name,
    description: `Level ${name}.`,
    instructions: next ? `Ask ${next}.` : 'Delete what you are told to.',
    tools: next ? [`agent.${next}`] : ['demo.delete_records'],
  });
