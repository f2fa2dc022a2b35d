import Table from 'cli-table3';

type Scalar = string | number | boolean | null | undefined;
type Column = { key: string; label?: string; align?: 'left' | 'center' | 'right' };
type Widget = { widget: string; data: unknown; fallback: string };

const cell = (value: Scalar) => (value === null || value === undefined ? '' : String(value));
/** No colours inside tables: they stay readable in a pipe, a log or a file. */
const plain = { style: { head: [], border: [] } };

/**
 * A widget as text: a table or a card as a grid, anything else (charts, progress, plugins' own widgets) as the
 * fallback text its widget wrote for clients like this one.
 */
export function widgetText(widget: Widget): string {
  const data = widget.data as Record<string, unknown> | undefined;
  const title = typeof data?.title === 'string' ? `${data.title}\n` : '';
  if (widget.widget === 'table' && Array.isArray(data?.columns) && Array.isArray(data?.rows)) {
    const columns = data.columns as Column[];
    const table = new Table({
      ...plain,
      head: columns.map((column) => column.label ?? column.key),
      colAligns: columns.map((column) => column.align ?? 'left'),
    });
    for (const row of data.rows as Record<string, Scalar>[]) table.push(columns.map((c) => cell(row[c.key])));
    return `${title}${table.toString()}`;
  }
  if (widget.widget === 'key-value' && Array.isArray(data?.items)) {
    const table = new Table(plain);
    for (const item of data.items as { label: string; value: Scalar }[])
      table.push({ [item.label]: cell(item.value) });
    return `${title}${table.toString()}`;
  }
  return widget.fallback;
}
