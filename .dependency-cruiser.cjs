// The layering rules of web/src, checked by `npm test` (stage web) with
// dependency-cruiser: `npx depcruise web/src --config .dependency-cruiser.cjs`.
// docs/architecture.md explains the layers; each rule's comment is the message
// a violation prints.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle: split the shared part into a module both can import (docs/architecture.md).',
      from: { path: '^web/src/' },
      to: { circular: true },
    },
    {
      name: 'core-is-the-bottom',
      severity: 'error',
      comment: 'web/src/core (the facade over the wasm core) imports only web/src/core.',
      from: { path: '^web/src/core/' },
      to: { path: '^web/src/', pathNot: '^web/src/core/' },
    },
    {
      name: 'common-is-pure',
      severity: 'error',
      comment: 'web/src/common holds pure helpers for both sides of the worker: it imports only web/src/common.',
      from: { path: '^web/src/common/' },
      to: { path: '^web/src/', pathNot: '^web/src/common/' },
    },
    {
      name: 'protocol-is-plain-data',
      severity: 'error',
      comment:
        'web/src/protocol imports only the core (types), web/src/common and itself; only protocol/api.ts reads the worker, and only the type of its handler table.',
      from: { path: '^web/src/protocol/', pathNot: '^web/src/protocol/api[.]ts$' },
      to: { path: '^web/src/', pathNot: '^web/src/(core|protocol|common)/' },
    },
    {
      name: 'protocol-api-reads-only-the-handler-table',
      severity: 'error',
      comment: "web/src/protocol/api.ts derives the protocol from the worker's handler table with `import type` from worker/handlers.ts, and nothing else of the app.",
      from: { path: '^web/src/protocol/api[.]ts$' },
      to: { path: '^web/src/', pathNot: ['^web/src/(core|protocol|common)/', '^web/src/worker/handlers[.]ts$'] },
    },
    {
      name: 'protocol-api-type-only',
      severity: 'error',
      comment: "web/src/protocol/api.ts must import the worker's handler table with `import type`: no worker code may reach the page's bundle.",
      from: { path: '^web/src/protocol/api[.]ts$' },
      to: { path: '^web/src/worker/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'worker-stays-off-the-page',
      severity: 'error',
      comment: 'web/src/worker runs in the Web Worker: it imports only web/src/core, web/src/protocol, web/src/common and itself (no app state, no components).',
      from: { path: '^web/src/worker/' },
      to: { path: '^web/src/', pathNot: '^web/src/(core|protocol|common|worker)/' },
    },
    {
      name: 'page-does-not-import-the-worker',
      severity: 'error',
      comment:
        'The page talks to the worker only through app/coreClient.ts (main.tsx starts it by URL). Import request and result types from web/src/protocol instead.',
      from: { path: '^web/src/(app|lessons|viewmodels|widgets)/|^web/src/main[.]tsx$' },
      to: { path: '^web/src/worker/' },
    },
    {
      name: 'page-runs-no-core',
      severity: 'error',
      comment:
        'The page never does the math: only the worker runs the core. (app/consoleApi.ts loads a core of its own for the DevTools console; see docs/architecture.md.) Import core types with `import type`.',
      from: { path: '^web/src/(app|lessons|viewmodels|widgets)/|^web/src/main[.]tsx$', pathNot: '^web/src/app/consoleApi[.]ts$' },
      to: { path: '^web/src/core/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'widgets-take-props',
      severity: 'error',
      comment:
        "Widgets get their data as props or through web/src/viewmodels/, never from the app's singletons (the core client, app state, the lesson route).",
      from: { path: '^web/src/widgets/' },
      to: { path: '^web/src/app/(core|coreClient|state|inspectorState)[.]ts$|^web/src/lessons/route[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^web/src/core/wasm/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
