import { DefinitionError, isPluginFactory } from '@tessera/core';
import { describe, expect, it } from 'vitest';
import agentsPluginFactory, { agentsPlugin, defineAgent } from '../src/index.ts';

const base = { name: 'helper', description: 'Helps.', instructions: 'Help.' };

describe('defineAgent', () => {
  it('fills in the defaults', () => {
    expect(defineAgent(base)).toEqual({
      ...base,
      tools: [],
      model: 'normal',
      history: 'task',
      readOnly: false,
      maxRounds: 10,
      maxToolCalls: 20,
      timeoutMs: 600_000,
    });
  });

  it('names the agent and every problem', () => {
    const bad = () => defineAgent({ ...base, name: 'Bad Name', maxRounds: 0, extra: 1 } as never);
    expect(bad).toThrow(DefinitionError);
    expect(bad).toThrow("Agent 'Bad Name' is not valid: ");
    expect(bad).toThrow(/name: use 1-48 lowercase.*maxRounds:.*extra/);
  });
});

describe('agentsPlugin', () => {
  it('offers one tool per agent, read-only for read-only agents, with the agent timeout', () => {
    const plugin = agentsPlugin({
      agents: [base, { ...base, name: 'reader', readOnly: true, timeoutMs: 5_000 }],
    });
    expect(plugin.tools.map((tool) => [tool.id, tool.readOnly, tool.timeoutMs])).toEqual([
      ['agent.helper', false, 600_000],
      ['agent.reader', true, 5_000],
    ]);
  });

  it('refuses two agents of one name, an unknown agent among the tools, and bad bounds', () => {
    expect(() => agentsPlugin({ agents: [base, base] })).toThrow("two agents are named 'helper'");
    expect(() => agentsPlugin({ agents: [{ ...base, tools: ['agent.nobody'] }] })).toThrow(
      "Agent 'helper' may use 'agent.nobody', but no agent of that name is defined.",
    );
    expect(() => agentsPlugin({ agents: [base], maxDepth: 0 })).toThrow('maxDepth must be a whole number');
    expect(() => agentsPlugin({ agents: [] })).toThrow('give at least one agent');
    expect(() => agentsPlugin({ agents: [base], maxRunsPerPrompt: 0 })).toThrow('maxRunsPerPrompt must be');
    expect(() => agentsPlugin({ agents: [base], sweepEveryMs: -1 })).toThrow('sweepEveryMs must be');
  });

  it('is the default export, as a plugin factory for config files', () => {
    expect(isPluginFactory(agentsPluginFactory)).toBe(true);
    const plugin = agentsPluginFactory({ agents: [base], maxDepth: 2 });
    expect(plugin.tools.map((tool) => tool.id)).toEqual(['agent.helper']);
    expect(() => agentsPluginFactory({ agents: [] } as never)).toThrow(DefinitionError);
  });
});
