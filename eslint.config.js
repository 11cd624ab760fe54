// Lint rules that hold STYLE.md's habits: no `any`, no `!`, no floating promises, `import type`
// for types, no Node built-ins in the worker, imports that point down the tree, no import cycles.
import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

const PROJECTS = [
  './tsconfig.json',
  './tsconfig.node.json',
  './tsconfig.client.json',
  './tsconfig.e2e.json',
]

const NODE_BUILTINS = { group: ['node:*'] }
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
    // `import type` cycles are not reported: types are erased, so they cannot change the order
    // modules run in.
    files: ['src/**', 'scripts/**', 'test/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: PROJECTS, noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NODE_BUILTINS] }],
      'no-console': ['error', { allow: ['error', 'warn', 'log'] }],
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
    // Plain JavaScript outside the TypeScript projects (scripts/preflight.js runs on any Node).
    files: ['eslint.config.js', 'scripts/preflight.js'],
    ...tseslint.configs.disableTypeChecked,
  },
)
