import {
  type AnyTool,
  createTool,
  definePlugin,
  MemoryStore,
  type PromptOutput,
  promptsToMessages,
  type TesseraEvent,
  type ToolOutput,
} from '@tessera/core';
import { callTool, callTools, createTestPlatform, reply } from '@tessera/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWidget, progressWidget, tableWidget, type WidgetOutput, widgetsPlugin } from '../src/index.ts';

const forecastWidget = defineWidget({
  type: 'weather.forecast',
  data: z.object({ city: z.string(), highs: z.array(z.number()) }),
});

const forecastTool = createTool({
  id: 'weather.forecast',
  description: 'The forecast for a city.',
  input: z.object({ city: z.string() }),
  invoke: async ({ input, displayWidget }) => {
    const outputId = await displayWidget(
      forecastWidget,
      { city: input.city, highs: [21, 23, 19] },
      `${input.city}: 21°, 23°, 19°`,
    );
    return { city: input.city, outlook: 'mild', widget: outputId };
  },
});

const app = (...tools: AnyTool[]) => [widgetsPlugin, definePlugin({ id: 'app', tools })];

const resultOf = (output: PromptOutput | undefined) => (output as ToolOutput).result;

describe('displayWidget', () => {
  it('records the widget right after the tool output, persisted, and never shows it to the model', async () => {
    const store = new MemoryStore();
    const t = await createTestPlatform({
      plugins: app(forecastTool),
      store,
      script: [callTool('weather.forecast', { city: 'Lyon' }), reply('Mild all week.')],
    });
    const prompt = await t.send('Weather in Lyon?');

    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'widget', 'text']);
    const [tool, widget] = prompt.output as [ToolOutput, WidgetOutput];
    expect(widget).toMatchObject({
      widget: 'weather.forecast',
      data: { city: 'Lyon', highs: [21, 23, 19] },
      fallback: 'Lyon: 21°, 23°, 19°',
      toolCallId: tool.id,
    });
    expect(tool.result).toEqual({
      type: 'success',
      output: { city: 'Lyon', outlook: 'mild', widget: widget.id },
    });
    expect((await store.prompts.get(prompt.id))?.output).toEqual(prompt.output);

    // The model gets the tool's result and nothing of the widget: not its data, not its fallback.
    expect(t.model.requests[1]!.messages).toEqual([
      { type: 'message', role: 'user', content: 'Weather in Lyon?' },
      {
        type: 'function_call',
        callId: 'call_1',
        name: 'weather.forecast',
        arguments: '{"city":"Lyon"}',
        responseId: tool.responseId,
      },
      {
        type: 'function_call_output',
        callId: 'call_1',
        output: JSON.stringify({ city: 'Lyon', outlook: 'mild', widget: widget.id }),
      },
    ]);
  });

  it('leaves widgets out of promptsToMessages for a whole conversation', async () => {
    const t = await createTestPlatform({
      plugins: app(forecastTool),
      script: [
        callTool('weather.forecast', { city: 'Lyon' }),
        reply('Mild.'),
        callTool('weather.forecast', { city: 'Oslo' }),
        reply('Also mild.'),
      ],
    });
    await t.send('Lyon?');
    await t.send('Oslo?');
    const prompts = await t.platform.conversations.prompts(t.conversation.id, t.userId);
    expect(prompts.flatMap((p) => p.output).filter((o) => o.type === 'widget')).toHaveLength(2);

    const messages = promptsToMessages(prompts, { outputs: t.platform.outputs });
    expect(messages.map((m) => m.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
    expect(JSON.stringify(messages)).not.toMatch(/highs|°/);
  });

  it('applies the schema’s defaults and validates generic widgets', async () => {
    const tool = createTool({
      id: 'export.start',
      description: 'Starts an export.',
      input: z.object({}),
      invoke: async ({ displayWidget }) => {
        await displayWidget(progressWidget, { label: 'Export', value: 0 });
        return 'started';
      },
    });
    const t = await createTestPlatform({
      plugins: app(tool),
      script: [callTool('export.start'), reply('ok')],
    });
    const prompt = await t.send('export');
    expect(prompt.output[1]).toMatchObject({
      widget: 'progress',
      data: { label: 'Export', value: 0, max: 100, status: 'running' },
      fallback: 'Export: 0% (0/100)',
    });
  });

  it('turns data that does not match the schema into a tool error, recording no widget', async () => {
    const sloppy = createTool({
      id: 'sloppy.table',
      description: 'Shows a broken table.',
      input: z.object({}),
      invoke: async ({ displayWidget }) => {
        await displayWidget(tableWidget, {
          columns: [{ key: 'name' }],
          rows: [{ name: 'Ada' }, { name: 'Bob', age: 41 }],
        });
        return 'unreachable';
      },
    });
    const t = await createTestPlatform({
      plugins: app(sloppy),
      script: [callTool('sloppy.table'), reply('Oops')],
    });
    const prompt = await t.send('go');

    expect(prompt.state).toBe('completed');
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'text']);
    const result = resultOf(prompt.output[0]);
    expect(result?.type).toBe('error');
    const message = (result as { error: { message: string } }).error.message;
    expect(message).toContain("The data for widget 'table' does not match its schema");
    expect(message).toContain("'age' is not a column key");
    expect(message).toContain('rows[1].age');
  });

  it('requires a fallback for widgets that cannot derive one', async () => {
    const tool = createTool({
      id: 'no.fallback',
      description: 'Forgets the fallback.',
      input: z.object({}),
      invoke: async ({ displayWidget }) => {
        // @ts-expect-error the fallback is required for this widget
        await displayWidget(forecastWidget, { city: 'Rome', highs: [] });
        return 'unreachable';
      },
    });
    const t = await createTestPlatform({
      plugins: app(tool),
      script: [callTool('no.fallback'), reply('ok')],
    });
    const prompt = await t.send('go');
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'text']);
    expect(JSON.stringify(resultOf(prompt.output[0]))).toContain('needs a fallback text');
  });
});

describe('updateWidget', () => {
  const events = (t: Awaited<ReturnType<typeof createTestPlatform>>) => {
    const seen: TesseraEvent[] = [];
    t.platform.events.subscribe({ conversationId: t.conversation.id }, (event) => {
      if (event.type === 'prompt.output' || event.type === 'prompt.output-updated') seen.push(event);
    });
    return seen;
  };

  it('updates a progress widget in place, recorded as update events on the same output', async () => {
    const exportTool = createTool({
      id: 'export.run',
      description: 'Exports, with progress.',
      input: z.object({ steps: z.number().int() }),
      invoke: async ({ input, displayWidget, updateWidget }) => {
        const id = await displayWidget(progressWidget, { label: 'Export', value: 0, max: input.steps });
        for (let step = 1; step <= input.steps; step++) {
          const status = step === input.steps ? 'done' : 'running';
          await updateWidget(id, progressWidget, { label: 'Export', value: step, max: input.steps, status });
        }
        return 'exported';
      },
    });
    const t = await createTestPlatform({
      plugins: app(exportTool),
      script: [callTool('export.run', { steps: 3 }), reply('Done')],
    });
    const seen = events(t);
    const prompt = await t.send('export');

    const widgets = prompt.output.filter((o): o is WidgetOutput => o.type === 'widget');
    expect(widgets).toHaveLength(1);
    expect(widgets[0]).toMatchObject({
      data: { value: 3, max: 3, status: 'done' },
      fallback: 'Export: 100% (3/3) (done)',
    });
    const widgetEvents = seen.filter((e) => 'output' in e && e.output.type === 'widget');
    expect(widgetEvents.map((e) => e.type)).toEqual([
      'prompt.output',
      'prompt.output-updated',
      'prompt.output-updated',
      'prompt.output-updated',
    ]);
    expect(new Set(widgetEvents.map((e) => ('output' in e ? e.output.id : '')))).toEqual(
      new Set([widgets[0]!.id]),
    );
  });

  it('updates a widget displayed by an earlier call of the same prompt, keeping its fallback', async () => {
    const show = createTool({
      id: 'forecast.show',
      description: 'Shows a forecast.',
      input: z.object({}),
      invoke: async ({ displayWidget }) => ({
        id: await displayWidget(forecastWidget, { city: 'Nice', highs: [20] }, 'Nice: 20°'),
      }),
    });
    const refresh = createTool({
      id: 'forecast.refresh',
      description: 'Refreshes a forecast.',
      input: z.object({ id: z.string() }),
      invoke: async ({ input, updateWidget }) => {
        await updateWidget(input.id, forecastWidget, { city: 'Nice', highs: [20, 22] });
        return 'refreshed';
      },
    });
    const t = await createTestPlatform({
      plugins: app(show, refresh),
      script: [
        callTool('forecast.show'),
        (request) => {
          const output = request.messages.find((m) => m.type === 'function_call_output');
          const { id } = JSON.parse(output?.type === 'function_call_output' ? output.output : '{}');
          return callTool('forecast.refresh', { id });
        },
        reply('ok'),
      ],
    });
    const prompt = await t.send('go');
    expect(prompt.output.map((o) => o.type)).toEqual(['tool', 'widget', 'tool', 'text']);
    expect(prompt.output[1]).toMatchObject({ data: { highs: [20, 22] }, fallback: 'Nice: 20°' });
  });

  it('refuses unknown outputs and widgets of another type, leaving the widget as it was', async () => {
    const tool = createTool({
      id: 'bad.update',
      description: 'Updates wrongly.',
      input: z.object({ mode: z.enum(['unknown', 'other-type', 'bad-data']) }),
      invoke: async ({ input, displayWidget, updateWidget }) => {
        const id = await displayWidget(progressWidget, { label: 'Job', value: 1 });
        if (input.mode === 'unknown')
          await updateWidget('out_nope', progressWidget, { label: 'Job', value: 2 });
        if (input.mode === 'other-type')
          await updateWidget(id, tableWidget, { columns: [{ key: 'a' }], rows: [] });
        await updateWidget(id, progressWidget, { label: 'Job', value: 500 });
        return 'unreachable';
      },
    });
    const t = await createTestPlatform({
      plugins: app(tool),
      script: [
        callTools(
          { name: 'bad.update', args: { mode: 'unknown' } },
          { name: 'bad.update', args: { mode: 'other-type' } },
          { name: 'bad.update', args: { mode: 'bad-data' } },
        ),
        reply('ok'),
      ],
    });
    const prompt = await t.send('go');
    const errors = prompt.output
      .filter((o): o is ToolOutput => o.type === 'tool')
      .map((o) => JSON.stringify(o.result));
    expect(errors[0]).toContain('This prompt displayed no widget with output id out_nope');
    expect(errors[1]).toContain("is a 'progress' widget; it cannot be updated as a 'table' widget");
    expect(errors[2]).toContain('value cannot exceed max');
    for (const widget of prompt.output.filter((o): o is WidgetOutput => o.type === 'widget')) {
      expect(widget.data).toMatchObject({ value: 1 });
    }
  });
});
