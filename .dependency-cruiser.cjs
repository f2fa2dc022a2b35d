// The layers of @tessera/core (packages/core/src), bottom to top: a module imports only from its own layer
// or the layers below it, and no import circle exists, type-only imports included (docs/architecture.md).
// Run by `pnpm check:layers`, part of `pnpm lint` (and so of CI's `pnpm test`).
const src = '^packages/core/src/';
const layers = [
  ['base', `${src}(errors|ids|iso-now|lazy-require|version)\\.ts$`],
  ['model', `${src}model/`],
  ['tools', `${src}tools/`],
  ['provider', `${src}provider/`],
  ['outputs', `${src}outputs/`],
  ['projection', `${src}projection/`],
  ['events', `${src}events/`],
  ['store', `${src}store/`],
  ['plugins', `${src}plugins/`],
  ['loop', `${src}loop/`],
  ['platform', `${src}platform/`],
  ['index', `${src}index\\.ts$`],
];
const anyLayer = layers.map(([, path]) => `(${path})`).join('|');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layers.slice(0, -1).map(([name, path], i) => ({
      name: `core-layer-${name}`,
      comment: `${name} is below ${layers
        .slice(i + 1)
        .map(([above]) => above)
        .join(', ')}: it must not import from them (move what it needs down instead).`,
      severity: 'error',
      from: { path },
      to: { path: layers.slice(i + 1).map(([, above]) => `(${above})`) },
    })),
    {
      name: 'core-layer-unknown',
      comment: 'Every module of packages/core/src belongs to a layer: add a new folder to the layers above.',
      severity: 'error',
      from: { path: src, pathNot: anyLayer },
      to: {},
    },
    {
      name: 'core-layer-unknown-target',
      comment: 'Every module of packages/core/src belongs to a layer: add a new folder to the layers above.',
      severity: 'error',
      from: { path: src },
      to: { path: src, pathNot: anyLayer },
    },
    {
      name: 'core-no-circular',
      comment: 'No import circle inside packages/core/src, type-only imports included.',
      severity: 'error',
      from: { path: src },
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports count: they are arrows between layers as much as any other import.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsConfig: { fileName: 'packages/core/tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
