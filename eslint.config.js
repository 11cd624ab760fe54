// The code's habits, checked: no `any`, no `!`, no floating promises, `import type` for types, no
// Node built-ins in the worker, imports that point down the tree. Import cycles, type-only ones
// included, are found by dpdm in `npm run lint` (import-x/no-cycle cannot see type imports).
import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'
import { fragmentRules } from './scripts/lint/fragment-reads-no-context.js'

const PROJECTS = [
  './tsconfig.json',
  './tsconfig.node.json',
  './tsconfig.client.json',
  './tsconfig.e2e.json',
]

const NODE_BUILTINS = { group: ['node:*'] }

/**
 * The layers of src/, top first: a file imports only from its own layer and those below it
 * (README.md, "Map of the tree"). src/env.ts, the types of Hono's context, is in no layer: every
 * layer may import it.
 */
export const LAYERS = [
  ['src/*.ts'],
  ['src/routes/**', 'src/cron/**', 'src/client/**', 'src/sync/**'],
  ['src/request/**'],
  ['src/cache/**'],
  ['src/views/**'],
  ['src/data/**', 'src/gate/**'],
  ['src/queries/**', 'src/seo/**'],
  ['src/flags/**'],
  ['src/observability/**'],
  ['src/urls/**'],
  ['src/catalog/**'],
  ['src/lib/**'],
]
const LAYER_ZONES = LAYERS.slice(1).map((layer, i) => ({
  target: layer,
  from: LAYERS.slice(0, i + 1).flat(),
  except: ['**/src/env.ts'],
  message: 'Imports point down the tree: see LAYERS in eslint.config.js.',
}))
const ROUTES = {
  regex: '(^|/)routes(/|$)',
  message: 'Handlers are mounted by src/app.ts and src/pages.ts; nothing else imports src/routes/.',
}

export default tseslint.config(
  { ignores: ['dist/', '.wrangler/', 'node_modules/', 'worker-configuration.d.ts', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: PROJECTS,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  {
    files: ['src/**', 'scripts/**', 'test/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: PROJECTS, noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
    },
  },
  {
    files: ['src/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NODE_BUILTINS] }],
      'no-console': ['error', { allow: ['error', 'warn', 'log'] }],
      // Hono's `c.var` copies every variable of the context into a new object at each read;
      // `c.get(name)` reads the one asked for (docs/performance.md).
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='var'][object.name='c']",
          message: "Read a context variable with c.get('name'): c.var copies them all each time.",
        },
      ],
    },
  },
  {
    // Imports point down the tree: only the app and its page table mount the handlers.
    files: ['src/**'],
    ignores: ['src/routes/**', 'src/app.ts', 'src/pages.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NODE_BUILTINS, ROUTES] }],
    },
  },
  {
    // A function is at most a screen (60 lines): a handler reads as parse → load → decide →
    // render (docs/request-flow.md), and any other function that grows past a screen is split
    // into named steps.
    files: ['src/**'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
  {
    // A fragment is rendered apart from the page and kept under its key: it reads no context
    // (scripts/lint/fragment-reads-no-context.js).
    files: ['src/views/**'],
    plugins: { fragments: fragmentRules },
    rules: { 'fragments/fragment-reads-no-context': 'error' },
  },
  {
    // Plain JavaScript outside the TypeScript projects (scripts/preflight.js runs on any Node).
    files: ['eslint.config.js', 'scripts/preflight.js', 'scripts/lint/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
)
