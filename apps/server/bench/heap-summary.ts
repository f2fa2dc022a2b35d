// Summarises a heap snapshot (from `soak:memory --heap-snapshot`): the constructors holding the most memory
// by self size, and the number of objects. Run: `node bench/heap-summary.ts <file.heapsnapshot> [top]`.
import { readFile } from 'node:fs/promises';

const [file, top = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/heap-summary.ts <file.heapsnapshot> [top]');
const snapshot = JSON.parse(await readFile(file, 'utf8')) as {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
};
const fields = snapshot.snapshot.meta.node_fields;
const width = fields.length;
const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
  number,
  number,
  number,
];
const types = snapshot.snapshot.meta.node_types[0];
const byName = new Map<string, { size: number; count: number }>();
let total = 0;
for (let i = 0; i < snapshot.nodes.length; i += width) {
  const type = types[snapshot.nodes[i + typeAt]!]!;
  const name =
    type === 'object' || type === 'closure' ? snapshot.strings[snapshot.nodes[i + nameAt]!]! : `(${type})`;
  const size = snapshot.nodes[i + sizeAt]!;
  total += size;
  const entry = byName.get(name) ?? { size: 0, count: 0 };
  entry.size += size;
  entry.count++;
  byName.set(name, entry);
}
console.log(
  `${(total / 1e6).toFixed(1)} MB in ${(snapshot.nodes.length / width).toLocaleString()} objects\n`,
);
console.log('| self size MB | objects | constructor |\n|---:|---:|---|');
for (const [name, { size, count }] of [...byName]
  .sort((a, b) => b[1].size - a[1].size)
  .slice(0, Number(top))) {
  console.log(`| ${(size / 1e6).toFixed(1)} | ${count.toLocaleString()} | ${name.slice(0, 60)} |`);
}
