// The import rules npm test enforces (npm run rules). Tests may reach anywhere: the rules are
// about the code that runs.
const test = '\\.test\\.tsx?$';
const server = '^packages/server/src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A cycle makes every file of it load, and change, with every other.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: test },
      to: { circular: true },
    },
    {
      name: 'cli-apart-from-server',
      comment:
        'The CLI reaches any CI from the installation: it shares code with the server only through @wharf/contract.',
      severity: 'error',
      from: { path: '^packages/cli/(src|bin)/' },
      to: { path: '^packages/server/' },
    },
    {
      name: 'edge-through-module-surfaces',
      comment: 'The edge uses a module only through its index.ts, the part the module says others may use.',
      severity: 'error',
      from: { path: `${server}edge/`, pathNot: test },
      to: { path: `${server}modules/`, pathNot: `${server}modules/[^/]+/index\\.ts$` },
    },
    {
      name: 'modules-apart-from-edge',
      comment: 'The modules answer the API; the edge reads what they stored, never the other way round.',
      severity: 'error',
      from: { path: `${server}modules/`, pathNot: test },
      to: { path: `${server}edge/` },
    },
    {
      name: 'readers-below-the-release-writer',
      comment:
        'The edge, backup, the console files and storage read stored releases through releaseFiles/, never from the wing that writes them.',
      severity: 'error',
      from: { path: `${server}(edge|backup|console|storage|releaseFiles)/`, pathNot: test },
      to: { path: `${server}modules/releases/`, pathNot: `${server}modules/releases/index\\.ts$` },
    },
    {
      name: 'tls-apart-from-edge-and-modules',
      comment:
        'TLS learns which hosts exist from a HostDirectory (the routing table implements it), not from the edge or a module.',
      severity: 'error',
      from: { path: `${server}tls/`, pathNot: test },
      to: { path: `${server}(edge|modules)/` },
    },
    {
      name: 'config-types-low',
      comment:
        'The configuration types sit below every feature: what reads a setting never depends on the parsers of the others.',
      severity: 'error',
      from: { path: `${server}config/types\\.ts$` },
      to: { path: server },
    },
    {
      name: 'config-loader-high',
      comment:
        "The loader imports every feature's settings parser: only the entry points (main, the maintenance commands) load the configuration.",
      severity: 'error',
      from: { path: server, pathNot: [test, `${server}(main\\.ts|bin/|config/)`] },
      to: { path: `${server}config/load\\.ts$` },
    },
    {
      name: 'migrations-import-nothing-live',
      comment:
        'A migration does tomorrow what it did the day it shipped: it copies what it needs (migrations/frozen.ts).',
      severity: 'error',
      from: { path: `${server}db/migrations/[^/]+\\.ts$`, pathNot: test },
      to: {
        path: server,
        pathNot: [`${server}db/migrations/`, `${server}db/dialect\\.ts$`],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'migrations-import-no-packages-of-ours',
      severity: 'error',
      from: { path: `${server}db/migrations/[^/]+\\.ts$`, pathNot: test },
      to: { path: '^packages/(contract|cli|web)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: ['node_modules', '/dist/'] },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
