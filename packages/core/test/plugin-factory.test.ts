import { callTool, createTestPlatform, reply } from '@tessera/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  createTool,
  DefinitionError,
  definePlugin,
  definePluginFactory,
  type ToolOutput,
} from '../src/index.ts';

const Options = z.object({
  apiKey: z.string().min(8),
  region: z.enum(['eu', 'us']).default('eu'),
  timeoutMs: z.coerce.number().int().positive().default(5_000),
});

/** A plugin whose tool says which options it was made with. */
const acmePlugin = definePluginFactory({
  id: 'acme',
  options: Options,
  env: { apiKey: 'ACME_API_KEY', timeoutMs: 'ACME_TIMEOUT_MS' },
  create: (options) =>
    definePlugin({
      id: 'acme',
      tools: [
        createTool({
          id: 'acme.whoami',
          description: 'Which account and region.',
          input: z.object({}),
          invoke: () => ({
            key: `${options.apiKey.slice(0, 3)}…`,
            region: options.region,
            timeoutMs: options.timeoutMs,
          }),
        }),
      ],
    }),
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('definePluginFactory', () => {
  it('validates the options, applies their defaults and makes the plugin, which runs like any other', async () => {
    expect(acmePlugin.id).toBe('acme');
    expect(acmePlugin.options).toBe(Options);
    expect(acmePlugin.env).toEqual({ apiKey: 'ACME_API_KEY', timeoutMs: 'ACME_TIMEOUT_MS' });
    const t = await createTestPlatform({
      plugins: [acmePlugin({ apiKey: 'secret-key-1', region: 'us' })],
      script: [callTool('acme.whoami'), reply('ok')],
    });
    const prompt = await t.send('who am I?');
    expect((prompt.output[0] as ToolOutput).result).toEqual({
      type: 'success',
      output: { key: 'sec…', region: 'us', timeoutMs: 5000 },
    });
  });

  it('fills the options left out from the environment variables named in env; given options win', async () => {
    vi.stubEnv('ACME_API_KEY', 'key-from-env');
    vi.stubEnv('ACME_TIMEOUT_MS', '250');
    const t = await createTestPlatform({
      plugins: [acmePlugin()],
      script: [callTool('acme.whoami'), reply('ok')],
    });
    expect(((await t.send('?')).output[0] as ToolOutput).result).toMatchObject({
      output: { key: 'key…', region: 'eu', timeoutMs: 250 },
    });
    const given = await createTestPlatform({
      plugins: [acmePlugin({ apiKey: 'given-key-1' })],
      script: [callTool('acme.whoami'), reply('ok')],
    });
    expect(((await given.send('?')).output[0] as ToolOutput).result).toMatchObject({
      output: { key: 'giv…' },
    });
  });

  it('fills an option named like a key every object inherits (constructor) from its variable too', () => {
    const named = definePluginFactory({
      id: 'named',
      options: z.object({ constructor: z.string() }),
      env: { constructor: 'NAMED_CONSTRUCTOR' },
      create: (options) =>
        definePlugin({
          id: 'named',
          tools: [
            createTool({
              id: 'named.x',
              description: options.constructor,
              input: z.object({}),
              invoke: () => null,
            }),
          ],
        }),
    });
    vi.stubEnv('NAMED_CONSTRUCTOR', 'from-env');
    // Typed as the app would call it without the option (the key's type is the inherited one's otherwise).
    const plugin = (named as unknown as () => ReturnType<typeof named>)();
    expect(plugin.tools[0]?.description).toBe('from-env');
  });

  it('lists every problem with the options in one DefinitionError naming the plugin, without the values', () => {
    vi.stubEnv('ACME_API_KEY', 'short');
    const error = (() => {
      try {
        acmePlugin({ region: 'mars' as never, timeoutMs: -1 });
      } catch (e) {
        return e;
      }
    })();
    expect(DefinitionError.is(error)).toBe(true);
    const message = (error as Error).message;
    expect(message.split('\n')[0]).toBe("Plugin 'acme': its options are not valid:");
    expect(message).toContain('  - apiKey: ');
    expect(message).toContain('(from the environment variable ACME_API_KEY)'); // 'short' came from there
    expect(message).toContain('  - region: ');
    expect(message).toContain('  - timeoutMs: ');
    expect(message.split('\n')).toHaveLength(4);
    expect(message).not.toContain('short');
  });

  it('names the environment variable only for a problem with the option itself, not inside its value', () => {
    const factory = definePluginFactory({
      id: 'nested',
      options: z.object({ servers: z.record(z.string(), z.object({ url: z.url() })) }),
      env: { servers: 'NESTED_SERVERS' },
      create: () => definePlugin({ id: 'nested' }),
    });
    expect(() => factory({ servers: { a: { url: 'nope' } } })).toThrow(/- servers\.a\.url: Invalid URL$/m);
    expect(() => factory({ servers: 'nope' as never })).toThrow(/- servers: .*NESTED_SERVERS\)$/m);
  });

  it('says that a wrong value came from its environment variable, rather than to set that variable', () => {
    vi.stubEnv('ACME_API_KEY', 'secret-key-1');
    vi.stubEnv('ACME_TIMEOUT_MS', '-5');
    expect(() => acmePlugin()).toThrow(
      /^ {2}- timeoutMs: .* \(from the environment variable ACME_TIMEOUT_MS\)$/m,
    );
    expect(() => acmePlugin()).not.toThrow(/give it/);
  });

  it('names the environment variable of a missing secret', () => {
    vi.stubEnv('ACME_API_KEY', undefined);
    expect(() => acmePlugin()).toThrow(
      /- apiKey: .*\(give it, or set the environment variable ACME_API_KEY\)/,
    );
  });

  it('refuses a factory that is defined wrongly, or makes a plugin of another id', () => {
    const create = () => definePlugin({ id: 'acme' });
    expect(() => definePluginFactory({ id: 'Acme', options: z.object({}), create })).toThrow(DefinitionError);
    expect(() => definePluginFactory({ id: 'acme', options: z.string() as never, create })).toThrow(
      "Plugin factory 'acme': options must be a zod object schema",
    );
    expect(() =>
      definePluginFactory({
        id: 'acme',
        options: z.object({ a: z.string() }),
        env: { b: 'B' } as never,
        create,
      }),
    ).toThrow("Plugin factory 'acme': env names 'b', which is not one of its options.");
    const other = definePluginFactory({
      id: 'acme',
      options: z.object({}),
      create: () => definePlugin({ id: 'other' }),
    });
    expect(() => other()).toThrow(
      "Plugin factory 'acme' created a plugin with the id 'other'; it must create plugin 'acme'.",
    );
  });
});
