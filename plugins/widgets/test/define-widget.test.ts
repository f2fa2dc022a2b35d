import { DefinitionError, type PromptOutput } from '@tessera/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  chartWidget,
  defineWidget,
  genericWidgets,
  keyValueWidget,
  parseWidgetData,
  progressWidget,
  readWidget,
  tableWidget,
  WidgetDataError,
} from '../src/index.ts';

describe('defineWidget', () => {
  it('refuses bad type names and data JSON cannot hold', () => {
    expect(() => defineWidget({ type: 'Bad Type', data: z.object({}) })).toThrow(DefinitionError);
    expect(() => defineWidget({ type: 'calendar', data: z.object({ at: z.date() }) })).toThrow(
      "Widget 'calendar': its data schema cannot be stored as JSON",
    );
  });

  it('derives the JSON Schema once, for renderers', () => {
    expect(tableWidget.jsonSchema).toMatchObject({ type: 'object', required: ['columns', 'rows'] });
    expect(tableWidget.jsonSchema).not.toHaveProperty('$schema');
  });

  it('reports every problem with the data, naming the widget', () => {
    const error = (() => {
      try {
        parseWidgetData(keyValueWidget, { items: [{ label: '', value: {} }] });
      } catch (caught) {
        return caught as WidgetDataError;
      }
    })();
    expect(error).toBeInstanceOf(WidgetDataError);
    expect(error?.code).toBe('widget_data_invalid');
    expect(error?.widgetType).toBe('key-value');
    expect(error?.message).toContain('items[0].label');
    expect(error?.message).toContain('items[0].value');
  });
});

describe('generic widgets', () => {
  it('have distinct types', () => {
    expect(genericWidgets.map((w) => w.type)).toEqual(['table', 'key-value', 'progress', 'chart']);
  });

  it('derive fallback text from their data', () => {
    const table = parseWidgetData(tableWidget, {
      title: 'People',
      columns: [{ key: 'name', label: 'Name' }, { key: 'age' }],
      rows: [{ name: 'Ada', age: 36 }, { name: 'Bob' }],
    });
    expect(tableWidget.fallback(table)).toBe('People\nName\tage\nAda\t36\nBob\t');

    // Columns the model names after Object.prototype's properties: a row without one has an empty cell there.
    const inherited = parseWidgetData(tableWidget, {
      columns: [{ key: 'constructor' }, { key: 'toString' }, { key: '__proto__' }, { key: 'n' }],
      rows: [{ n: 1 }, JSON.parse('{"constructor": "own", "__proto__": "dropped", "n": 2}')],
    });
    expect(tableWidget.fallback(inherited)).toBe('constructor\ttoString\t__proto__\tn\n\t\t\t1\nown\t\t\t2');

    const card = parseWidgetData(keyValueWidget, {
      items: [
        { label: 'Plan', value: 'Pro' },
        { label: 'Seats', value: 3 },
      ],
    });
    expect(keyValueWidget.fallback(card)).toBe('Plan: Pro\nSeats: 3');

    const progress = parseWidgetData(progressWidget, { label: 'Upload', value: 1, max: 4, status: 'failed' });
    expect(progressWidget.fallback(progress)).toBe('Upload: 25% (1/4) (failed)');

    const chart = parseWidgetData(chartWidget, {
      title: 'Latency',
      y: { unit: 'ms' },
      series: [
        {
          name: 'p50',
          points: [
            { x: 1, y: 12 },
            { x: 2, y: 9 },
          ],
        },
        { name: 'p99', points: [] },
      ],
    });
    expect(chart.kind).toBe('line');
    expect(chartWidget.fallback(chart)).toBe('Latency\np50: 2 points, 9–12 ms\np99: no points');
  });

  it('reject malformed data', () => {
    expect(() => parseWidgetData(tableWidget, { columns: [], rows: [] })).toThrow(WidgetDataError);
    expect(() => parseWidgetData(tableWidget, { columns: [{ key: 'a' }, { key: 'a' }], rows: [] })).toThrow(
      'Column keys must be unique',
    );
    expect(() => parseWidgetData(progressWidget, { label: 'x', value: -1 })).toThrow(WidgetDataError);
    expect(() =>
      parseWidgetData(chartWidget, { series: [{ name: 's', points: [{ x: 1, y: 'high' }] }] }),
    ).toThrow('series[0].points[0].y');
  });
});

describe('readWidget', () => {
  const output = (widget: string, data: unknown) =>
    ({ type: 'widget', id: 'out_1', createdAt: '', widget, data, fallback: '' }) as PromptOutput;

  it('gives typed data for a matching, valid widget only', () => {
    const data = readWidget(
      output('progress', { label: 'x', value: 5, max: 10, status: 'running' }),
      progressWidget,
    );
    expect(data?.value).toBe(5);
    expect(readWidget(output('table', {}), progressWidget)).toBeUndefined();
    expect(readWidget(output('progress', { label: 'x' }), progressWidget)).toBeUndefined();
    expect(readWidget({ type: 'text', id: 'o', createdAt: '', text: 'hi' }, progressWidget)).toBeUndefined();
  });
});
