import Table from 'cli-table3';

type Scalar = string | number | boolean | null | undefined;
type Column = { key: string; label?: string; align?: 'left' | 'center' | 'right' };
type Widget = { widget: string; data: unknown; fallback: string };

const cell = (value: Scalar) => (value === null || value === undefined ? '' : String(value));
/** No colours inside tables (they stay readable in a pipe, a log or a file), no line between rows. */
const plain = {
  style: { head: [], border: [] },
  chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
};

/** A column's alignment: as its widget says, else right for numbers, as a spreadsheet does. */
const alignOf = (column: Column, rows: Record<string, Scalar>[]) =>
  column.align ??
  (rows.length > 0 && rows.every((row) => typeof row[column.key] === 'number' || row[column.key] == null)
    ? 'right'
    : 'left');

/** A rule under the header row only (the table draws none between rows): the top border, as a middle one. */
function underlineHeader(table: string): string {
  const [top, header, ...rest] = table.split('\n');
  if (top === undefined || header === undefined || rest.length < 2) return table;
  const rule = top.replace('┌', '├').replaceAll('┬', '┼').replace('┐', '┤');
  return [top, header, rule, ...rest].join('\n');
}

/**
 * A widget as text: a table or a card as a grid, anything else (charts, progress, plugins' own widgets) as the
 * fallback text its widget wrote for clients like this one.
 */
export function widgetText(widget: Widget): string {
  const data = widget.data as Record<string, unknown> | undefined;
  const title = typeof data?.title === 'string' ? `${data.title}\n` : '';
  if (widget.widget === 'table' && Array.isArray(data?.columns) && Array.isArray(data?.rows)) {
    const columns = data.columns as Column[];
    const rows = data.rows as Record<string, Scalar>[];
    const table = new Table({
      ...plain,
      head: columns.map((column) => column.label ?? column.key),
      colAligns: columns.map((column) => alignOf(column, rows)),
    });
    for (const row of rows) table.push(columns.map((c) => cell(row[c.key])));
    return `${title}${underlineHeader(table.toString())}`;
  }
  if (widget.widget === 'key-value' && Array.isArray(data?.items)) {
    const table = new Table(plain);
    for (const item of data.items as { label: string; value: Scalar }[])
      table.push({ [item.label]: cell(item.value) });
    return `${title}${table.toString()}`;
  }
  return widget.fallback;
}
