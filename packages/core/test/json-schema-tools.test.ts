import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTool, DefinitionError, definePlugin } from '../src/index.ts';

// A schema from elsewhere (an MCP server): zod would not give it back as it is (the `examples`, `$defs`).
const given = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { city: { $ref: '#/$defs/city' } },
  required: ['city'],
  $defs: { city: { type: 'string', examples: ['Lyon'] } },
};

/** The check `input` runs: what a JSON Schema validator would say of `given`. */
const input = z.looseObject({}).superRefine((value, ctx) => {
  if (typeof value.city !== 'string')
    ctx.addIssue({ code: 'custom', path: ['city'], message: 'must be a string' });
});

describe('createTool with a jsonSchema', () => {
  it('sends the given schema to the model as it is, without $schema, and validates calls with input', async () => {
    const weather = createTool({
      id: 'ext.weather',
      description: 'The weather in a city.',
      input,
      jsonSchema: given,
      invoke: ({ input }) => `Sunny in ${String(input.city)}`,
    });
    const { $schema: _, ...sent } = given;
    expect(weather.jsonSchema).toEqual(sent);
    const t = await createTestPlatform({
      plugins: [definePlugin({ id: 'ext', tools: [weather] })],
      script: [
        callTool('ext.weather', { city: 3 }),
        callTool('ext.weather', { city: 'Lyon' }),
        reply('Sunny.'),
      ],
    });
    const prompt = await t.send('Weather in Lyon?');
    expect(t.model.requests[0]?.tools).toContainEqual({
      name: 'ext.weather',
      description: 'The weather in a city.',
      parameters: sent,
    });
    const [invalid, valid] = prompt.output.filter((o) => o.type === 'tool');
    expect(invalid?.result).toMatchObject({ type: 'error', error: { code: 'invalid_arguments' } });
    expect(JSON.stringify(invalid?.result)).toContain('must be a string');
    expect(valid?.result).toEqual({ type: 'success', output: 'Sunny in Lyon' });
  });

  it('keeps a copy: changing the given object later changes nothing', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const tool = createTool({ id: 'ext.a', description: 'A.', input, jsonSchema: schema, invoke: () => 1 });
    (schema.properties.a as Record<string, unknown>).type = 'number';
    expect(tool.jsonSchema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('refuses a schema that is not an object schema, naming the tool', () => {
    const make = (jsonSchema: unknown) => () =>
      createTool({
        id: 'ext.bad',
        description: 'Bad.',
        input,
        jsonSchema: jsonSchema as never,
        invoke: () => 1,
      });
    expect(make({ type: 'string' })).toThrow(DefinitionError);
    expect(make({ type: 'string' })).toThrow("Tool 'ext.bad': jsonSchema must describe an object");
    expect(make([])).toThrow('jsonSchema must be a JSON Schema object');
    expect(make({ type: 'object', n: 10n })).toThrow('jsonSchema is not JSON');
  });
});
