import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore, type ModelProvider, type TextOutput } from '@tessera/core';
import { reply, ScriptedModel } from '@tessera/testing';
import { afterEach, expect, it } from 'vitest';
import { createServer, type TesseraServer } from '../src/index.ts';

let server: TesseraServer | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A provider that names the model of each class, as `createAISDKProvider` does (its models' ids). */
const naming = (model: ModelProvider) =>
  Object.assign(model, { models: { normal: 'claude-sonnet-4-5', high: 'claude-opus-4-1' } });

async function answer(options: Parameters<typeof createServer>[0]) {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-model-names-'));
  server = await createServer({ dataDir, webDir: null, store: new MemoryStore(), ...options });
  const { id } = await server.platform.conversations.create({ userId: 'u' });
  const prompt = await server.platform.send({ conversationId: id, userId: 'u', input: 'Hi' });
  return (prompt.output[0] as TextOutput).modelCall?.model;
}

it('records the model names a given provider gives its classes, when the configuration names none', async () => {
  expect(await answer({ model: naming(new ScriptedModel([reply('Hello')])) })).toBe('claude-sonnet-4-5');
});

it('keeps the configured model names over the provider’s', async () => {
  const model = naming(new ScriptedModel([reply('Hello')]));
  expect(await answer({ model, models: { normal: 'sonnet', high: 'opus' } })).toBe('sonnet');
});

it('keeps the defaults for a provider that names nothing', async () => {
  expect(await answer({ model: new ScriptedModel([reply('Hello')]) })).toBe('gpt-5-mini');
});
