import { useEffect, useRef, useState } from 'react';
import type { Output } from '../api.ts';
import './outputs.css';

type Scalar = string | number | boolean | null;
type Table = {
  title?: string;
  columns: { key: string; label?: string; align?: string }[];
  rows: Record<string, Scalar>[];
};
type KeyValue = { title?: string; items: { label: string; value: Scalar }[] };
type Progress = { label: string; value: number; max: number; status: string };
type Chart = {
  title?: string;
  kind: string;
  y?: { unit?: string };
  series: { name: string; points: { x: string | number; y: number }[] }[];
};

const text = (value: Scalar | undefined) => (value === null || value === undefined ? '' : String(value));
/** A row's value in a column, by its own keys only: a column `constructor` of a row without one is empty. */
const cell = (row: Table['rows'][number], key: string) => (Object.hasOwn(row, key) ? row[key] : undefined);

type Align = 'left' | 'right' | 'center';

/**
 * A column's alignment, the same for its header and its cells: as the widget says, else right when every
 * value in it is a number (figures line up by their last digit, and the header sits over them).
 */
export function columnAlign(column: Table['columns'][number], rows: Table['rows']): Align {
  if (column.align === 'left' || column.align === 'right' || column.align === 'center') return column.align;
  const values = rows
    .map((row) => cell(row, column.key))
    .filter((v) => v !== null && v !== undefined && v !== '');
  return values.length > 0 && values.every((v) => typeof v === 'number') ? 'right' : 'left';
}

function TableWidget({ data }: { data: Table }) {
  const aligns = data.columns.map((c) => columnAlign(c, data.rows));
  return (
    <figure className="widget widget-table">
      {data.title && <figcaption>{data.title}</figcaption>}
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              {data.columns.map((c, i) => (
                <th key={c.key} scope="col" className={`align-${aligns[i]}`}>
                  {c.label ?? c.key}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
              <tr key={i}>
                {data.columns.map((c, i) => (
                  <td key={c.key} className={`align-${aligns[i]}`}>
                    {text(cell(row, c.key))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function KeyValueWidget({ data }: { data: KeyValue }) {
  return (
    <figure className="widget widget-card">
      {data.title && <figcaption>{data.title}</figcaption>}
      <dl>
        {data.items.map((item) => (
          <div key={item.label}>
            <dt>{item.label}</dt>
            <dd>{text(item.value)}</dd>
          </div>
        ))}
      </dl>
    </figure>
  );
}

function ProgressWidget({ data }: { data: Progress }) {
  const percent = Math.round((100 * data.value) / (data.max || 1));
  return (
    <figure className={`widget widget-progress progress-${data.status}`}>
      <figcaption>
        {data.label} <span>{percent}%</span>
      </figcaption>
      <progress value={data.value} max={data.max} aria-label={data.label} />
    </figure>
  );
}

/** Series colors: the theme's tokens, so both themes keep them readable on the panel. */
const COLORS = ['var(--chart-1)', 'var(--chart-2)', 'var(--chart-3)', 'var(--chart-4)'];

/**
 * The width the chart gets on the page, in CSS pixels: the SVG is drawn at that size (its viewBox is its pixel
 * width), so labels keep their 11 px on a phone instead of shrinking with a scaled drawing.
 */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** A small SVG chart: lines (or bars) for each series, category labels along the bottom. */
function ChartWidget({ data }: { data: Chart }) {
  const [box, measured] = useWidth<HTMLDivElement>(520);
  const width = Math.max(240, measured);
  const height = width < 480 ? 180 : 200;
  const pad = 32;
  const points = data.series.flatMap((s) => s.points);
  const ys = points.map((p) => p.y);
  const min = Math.min(0, ...ys);
  const max = Math.max(...ys, min + 1);
  const xs = data.series[0]?.points.map((p) => p.x) ?? [];
  const xAt = (i: number) => pad + (i * (width - 2 * pad)) / Math.max(1, xs.length - 1);
  const yAt = (y: number) => height - pad - ((y - min) * (height - 2 * pad)) / (max - min);
  const unit = data.y?.unit ? ` ${data.y.unit}` : '';
  // Category labels that would overlap (about 7 px a character at 11 px) are thinned to every n-th.
  const longest = Math.max(1, ...xs.map((x) => String(x).length));
  const labelEvery = Math.max(1, Math.ceil((xs.length * (longest * 7 + 8)) / (width - 2 * pad)));
  return (
    <figure className="widget widget-chart">
      {data.title && <figcaption>{data.title}</figcaption>}
      <div className="chart-box" ref={box}>
        <svg
          viewBox={`0 0 ${width} ${height}`}
          width={width}
          height={height}
          role="img"
          aria-label={data.title ?? 'Chart'}
        >
          <line x1={pad} y1={height - pad} x2={width - pad} y2={height - pad} className="axis" />
          <text x={4} y={yAt(max) + 4} className="tick">{`${max}${unit}`}</text>
          <text x={4} y={yAt(min) + 4} className="tick">{`${min}${unit}`}</text>
          {xs.map((x, i) =>
            i % labelEvery === 0 ? (
              <text key={String(x)} x={xAt(i)} y={height - 8} className="tick" textAnchor="middle">
                {String(x)}
              </text>
            ) : null,
          )}
          {data.series.map((series, s) =>
            data.kind === 'bar' ? (
              series.points.map((p, i) => (
                <rect
                  key={`${series.name}-${String(p.x)}`}
                  x={xAt(i) - 8 + s * 6}
                  y={yAt(p.y)}
                  width={10}
                  height={yAt(min) - yAt(p.y)}
                  fill={COLORS[s % COLORS.length]}
                >
                  <title>{`${series.name} ${String(p.x)}: ${p.y}${unit}`}</title>
                </rect>
              ))
            ) : (
              <polyline
                key={series.name}
                fill="none"
                stroke={COLORS[s % COLORS.length]}
                strokeWidth={2.5}
                points={series.points.map((p, i) => `${xAt(i)},${yAt(p.y)}`).join(' ')}
              >
                <title>{series.name}</title>
              </polyline>
            ),
          )}
        </svg>
      </div>
      {data.series.length > 1 && (
        <ul className="legend">
          {data.series.map((s, i) => (
            <li key={s.name} style={{ color: COLORS[i % COLORS.length] }}>
              {s.name}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/** A widget rendered by type; a type this UI does not know shows its fallback text. */
export function WidgetView({ output }: { output: Output }) {
  const data = output.data as never;
  switch (output.widget) {
    case 'table':
      return <TableWidget data={data} />;
    case 'key-value':
      return <KeyValueWidget data={data} />;
    case 'progress':
      return <ProgressWidget data={data} />;
    case 'chart':
      return <ChartWidget data={data} />;
    default:
      return <pre className="widget widget-fallback">{String(output.fallback ?? '')}</pre>;
  }
}
