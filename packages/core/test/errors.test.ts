import { createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import * as errors from '../src/errors.ts';
import * as core from '../src/index.ts';
import {
  ConflictError,
  ConversationBusyError,
  definePlugin,
  ModelError,
  NotFoundError,
  TesseraError,
} from '../src/index.ts';

/**
 * A second copy of the errors module, as an app gets with two installs of @tessera/core: the query string
 * makes it another module instance, with classes of its own.
 */
const copy: typeof errors = await import(new URL('../src/errors.ts?copy', import.meta.url).href);

/** What a plugin package declares: a subclass of its copy of `NotFoundError`. */
const fileNotFound = (Base: typeof NotFoundError) => class FileNotFoundError extends Base {};

describe('errors made by another copy of @tessera/core', () => {
  it('are a separate copy, so instanceof fails on them', () => {
    expect(copy.NotFoundError).not.toBe(NotFoundError);
    expect(new copy.NotFoundError('gone')).not.toBeInstanceOf(TesseraError);
  });

  it('are recognised by is(), in both directions, by class', () => {
    const theirs = new copy.NotFoundError('gone');
    expect(TesseraError.is(theirs)).toBe(true);
    expect(NotFoundError.is(theirs)).toBe(true);
    expect(ConflictError.is(theirs)).toBe(false);
    expect(ModelError.is(theirs)).toBe(false);
    expect(copy.NotFoundError.is(new NotFoundError('gone'))).toBe(true);
    expect(copy.ConflictError.is(new NotFoundError('gone'))).toBe(false);
  });

  it('keep what their class carries once narrowed', () => {
    const error: unknown = new copy.ConversationBusyError('conv_1', 'prm_1');
    expect(ConversationBusyError.is(error) && [error.code, error.activePromptId]).toEqual([
      'conversation_busy',
      'prm_1',
    ]);
  });

  it('count for the subclasses of a plugin of either copy', () => {
    const Ours = fileNotFound(NotFoundError);
    const Theirs = fileNotFound(copy.NotFoundError);
    expect(Ours.is(new Theirs('no such file'))).toBe(true);
    expect(NotFoundError.is(new Theirs('no such file'))).toBe(true);
    expect(TesseraError.is(new Theirs('no such file'))).toBe(true);
    // A subclass's inherited is() checks for the subclass, not its parent.
    expect(Ours.is(new copy.NotFoundError('gone'))).toBe(false);
    expect(Ours.is(new NotFoundError('gone'))).toBe(false);
  });

  it('keep their code when a plugin prepare() throws one, instead of becoming a PluginError', async () => {
    const quota = definePlugin({
      id: 'quota',
      prepare: () => {
        throw new copy.TesseraError('quota_exceeded', 'No quota left this month.');
      },
    });
    const t = await createTestPlatform({ plugins: [quota], script: [reply('never')] });
    const prompt = await t.send('hi');
    expect(prompt.stopReason).toEqual({ code: 'quota_exceeded', message: 'No quota left this month.' });
  });

  it('fail a prompt as a model error when a provider throws one', async () => {
    const t = await createTestPlatform({
      script: [{ error: new copy.ModelError('upstream is down', { kind: 'server' }) }],
    });
    const prompt = await t.send('hi');
    expect(prompt.stopReason).toEqual({
      code: 'model_error',
      message: 'The model call failed: upstream is down',
    });
  });
});

describe('is()', () => {
  it('says no to what is not a Tessera error, whatever its name or code', () => {
    const lookalike = Object.assign(new Error('gone'), { name: 'NotFoundError', code: 'not_found' });
    for (const value of [
      lookalike,
      new Error('x'),
      { code: 'not_found' },
      'not_found',
      null,
      undefined,
      42,
    ]) {
      expect(TesseraError.is(value)).toBe(false);
      expect(NotFoundError.is(value)).toBe(false);
    }
  });

  it('narrows to the errors the platform throws', async () => {
    const t = await createTestPlatform();
    const error = await t.platform.getPrompt('prm_missing', t.userId).catch((e: unknown) => e);
    expect(NotFoundError.is(error) && error.code).toBe('not_found');
    expect(ConflictError.is(error)).toBe(false);
  });

  it('leaves the brand out of the error itself', () => {
    const error = new NotFoundError('gone');
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
  });
});

describe('the error classes', () => {
  /** A module's exported classes of errors, by name. */
  const classesOf = (module: object): Record<string, typeof TesseraError> =>
    Object.fromEntries(
      Object.entries(module).filter(
        ([, value]) => typeof value === 'function' && value.prototype instanceof Error,
      ),
    );
  const ours = classesOf(errors);

  it('all live in errors.ts and are all exported from the package', () => {
    expect(Object.keys(ours).sort()).toEqual([
      'ApprovalInputError',
      'ConflictError',
      'ConversationBusyError',
      'ConversationFullError',
      'DefinitionError',
      'EventStreamOverflowError',
      'HookError',
      'ModelError',
      'NotFoundError',
      'OutputValidationError',
      'PluginError',
      'PluginStateError',
      'TesseraError',
      'ToolCallError',
      'VersionConflictError',
    ]);
    const exported = classesOf(core);
    expect(Object.keys(exported).sort()).toEqual(Object.keys(ours).sort());
    for (const [name, ErrorClass] of Object.entries(ours)) expect(exported[name]).toBe(ErrorClass);
  });

  it('are all Tessera errors named after their class', () => {
    for (const [name, ErrorClass] of Object.entries(ours)) {
      expect(ErrorClass === TesseraError || ErrorClass.prototype instanceof TesseraError).toBe(true);
      expect(ErrorClass.name).toBe(name);
    }
  });
});
