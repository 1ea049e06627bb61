// The layering rules of web/src, checked by `npm test` (stage web) with
// dependency-cruiser: `npm run layers`. docs/architecture.md explains the
// layers; each rule's comment is the message a violation prints.

/** Modules matching `from` (but not `fromNot`) may import, inside web/src, only what `allowed` matches. */
function onlyImports(name, comment, from, allowed, fromNot) {
  return { name, severity: 'error', comment, from: { path: from, pathNot: fromNot }, to: { path: '^web/src/', pathNot: allowed } };
}

/** Modules matching `from` (but not `fromNot`) may not import what `to` describes. */
function forbids(name, comment, from, to, fromNot) {
  return { name, severity: 'error', comment, from: { path: from, pathNot: fromNot }, to };
}

const PAGE = '^web/src/(app|lessons|viewmodels|widgets)/|^web/src/main[.]tsx$';
const API = '^web/src/protocol/api[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbids('no-cycles', 'An import cycle: split the shared part into a module both can import (docs/architecture.md).', '^web/src/', { circular: true }),
    onlyImports('core-is-the-bottom', 'web/src/core (the facade over the wasm core) imports only web/src/core.', '^web/src/core/', '^web/src/core/'),
    onlyImports(
      'common-is-pure',
      'web/src/common holds pure helpers for both sides of the worker: it imports only web/src/common.',
      '^web/src/common/',
      '^web/src/common/',
    ),
    onlyImports(
      'protocol-is-plain-data',
      'web/src/protocol imports only the core (types), web/src/common and itself; only protocol/api.ts reads the worker, and only the type of its handler table.',
      '^web/src/protocol/',
      '^web/src/(core|protocol|common)/',
      API,
    ),
    onlyImports(
      'protocol-api-reads-only-the-handler-table',
      "web/src/protocol/api.ts derives the protocol from the worker's handler table with `import type` from worker/handlers.ts, and nothing else of the app.",
      API,
      ['^web/src/(core|protocol|common)/', '^web/src/worker/handlers[.]ts$'],
    ),
    forbids(
      'protocol-api-type-only',
      "web/src/protocol/api.ts must import the worker's handler table with `import type`: no worker code may reach the page's bundle.",
      API,
      { path: '^web/src/worker/', dependencyTypesNot: ['type-only'] },
    ),
    onlyImports(
      'worker-stays-off-the-page',
      'web/src/worker runs in the Web Worker: it imports only web/src/core, web/src/protocol, web/src/common and itself (no app state, no components).',
      '^web/src/worker/',
      '^web/src/(core|protocol|common|worker)/',
    ),
    forbids(
      'page-does-not-import-the-worker',
      'The page talks to the worker only through app/coreClient.ts (main.tsx starts it by URL). Import request and result types from web/src/protocol instead.',
      PAGE,
      { path: '^web/src/worker/' },
      '^web/src/main[.]tsx$',
    ),
    forbids(
      'main-takes-only-the-sandbox-url',
      "main.tsx imports of the worker side only the code-cell sandbox's built URL (`worker/sandbox/sandbox.ts?worker&url`, which app/sandboxFrame.ts sends to its frame); every other worker it starts with new Worker(new URL(...)).",
      '^web/src/main[.]tsx$',
      { path: '^web/src/worker/', pathNot: '^web/src/worker/sandbox/sandbox[.]ts$' },
    ),
    forbids(
      'page-runs-no-core',
      'The page never does the math: only the worker runs the core. (app/consoleApi.ts loads a core of its own for the DevTools console; see docs/architecture.md.) Import core types with `import type`.',
      PAGE,
      { path: '^web/src/core/', dependencyTypesNot: ['type-only'] },
      '^web/src/app/consoleApi[.]ts$',
    ),
    forbids(
      'widgets-take-props',
      "Widgets get their data as props or through web/src/viewmodels/, never from the app's singletons (the core client, app state, the lesson route).",
      '^web/src/widgets/',
      { path: '^web/src/app/(core|coreClient|state|inspectorState)[.]ts$|^web/src/lessons/route[.]ts$' },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^web/src/core/wasm/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
