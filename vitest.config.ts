// On an unsupported Node, one line and exit, before the config starts any tool.
import './scripts/preflight.js'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
import { newDevelopmentKeys } from './scripts/access-dev'
import { testCatalogLines, testZipStatements } from './scripts/seed/test-catalog'
import { TURNSTILE_TEST } from './scripts/turnstile-stand-in'

// Three projects: `workers` runs unit and route tests inside workerd with real local D1, KV and
// Cache (the test catalog imported once a run, restored in each test file by test/setup.ts); `node` runs the generator's and the bundles'
// tests; `e2e` starts the real `wrangler dev` (test/e2e/server.ts) and drives Debian's Chromium
// against it.
export default defineConfig(async () => {
  // The catalog across databases (docs/scale.md): control's schema and every shard's.
  const controlMigrations = await readD1Migrations('migrations/control')
  const catalogMigrations = await readD1Migrations('migrations/catalog')
  console.log(`vitest on Node ${process.version} (${process.execPath})`)
  const now = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z')
  // A development key pair stands in for Cloudflare Access: the worker gets its public half.
  const access = newDevelopmentKeys()
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest(({ inject }) => ({
              wrangler: { configPath: './wrangler.toml' },
              // Errors go to the capture server of test/node/sentry-capture.ts, as they would to Sentry.
              miniflare: {
                bindings: {
                  SENTRY_DSN: inject('sentryOrigin').replace('http://', 'http://public@') + '/1',
                  ENVIRONMENT: 'test',
                  PURGE_TOKEN: 'ops=test-ops-token,ci=test-ci-token',
                  SYNC_TOKEN: 'test-sync-token',
                  // Turnstile's test secret, verified by the stand-in on 127.0.0.1.
                  TURNSTILE_SECRET_KEY: TURNSTILE_TEST.secretPasses,
                  TURNSTILE_VERIFY_URL: inject('turnstileVerifyUrl'),
                  ACCESS_JWKS: access.jwks,
                  // Another layout of the catalog across databases (docs/scale.md): CI runs the
                  // data, sync, routes and cache tests again with SHARD_LAYOUT=one.
                  ...(process.env.SHARD_LAYOUT ? { SHARD_LAYOUT: process.env.SHARD_LAYOUT } : {}),
                },
              },
            })),
          ],
          // wrangler.toml defines NODE_ENV as production, so React's production build runs in
          // the tests as in the deployed worker; JSX must then use the production runtime too.
          oxc: { jsx: { runtime: 'automatic' as const, development: false } },
          test: {
            name: 'workers',
            include: ['test/**/*.test.{ts,tsx}'],
            exclude: ['test/node/**', 'test/e2e/**'],
            setupFiles: ['test/setup.ts'],
            globalSetup: [
              'test/node/sentry-capture.ts',
              'test/node/turnstile-stand-in.ts',
              // The test catalog imported once for the run; each file restores its rows.
              'test/node/catalog-snapshot.ts',
            ],
            // The worker writes a log line per request; tests make thousands of requests.
            onConsoleLog: (log: string) => !log.startsWith('{"level":"info","message":"request"'),
            provide: {
              controlMigrations,
              catalogMigrations,
              catalogLines: testCatalogLines(now),
              catalogNow: now.toISOString(),
              zipStatements: testZipStatements(),
              accessPrivateJwk: access.privateJwk,
            },
          },
        },
        {
          test: {
            name: 'node',
            environment: 'node',
            include: ['test/node/**/*.test.ts'],
            provide: { vitestNode: process.version },
            testTimeout: 120_000,
            hookTimeout: 180_000,
          },
        },
        {
          test: {
            name: 'e2e',
            environment: 'node',
            include: ['test/e2e/**/*.test.ts'],
            globalSetup: ['test/e2e/server.ts'],
            // One file at a time: the crawl's load must not push navigations past their timeout.
            fileParallelism: false,
            testTimeout: 60_000,
            hookTimeout: 60_000,
          },
        },
      ],
    },
  }
})
