import type { D1Migration } from '@cloudflare/vitest-plugin'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The schemas of control and of every shard (migrations/control, migrations/catalog). */
    controlMigrations: D1Migration[]
    catalogMigrations: D1Migration[]
    /** The test catalog as NDJSON change messages, a line each (scripts/seed/test-catalog.ts). */
    catalogLines: string[]
    catalogNow: string
    /** The ZIP codes near the test catalog's places, as INSERT statements. */
    zipStatements: string[]
    /** Where the test catalog's rows, imported once a run, are served (test/node/catalog-snapshot.ts). */
    catalogSnapshotOrigin: string
    /** The Sentry capture server (test/node/capture-server.ts). */
    sentryOrigin: string
    /** The Turnstile stand-in's siteverify (scripts/turnstile-stand-in.ts). */
    turnstileVerifyUrl: string
    /** The e2e project's `wrangler dev` (test/e2e/server.ts) and its state folder. */
    baseUrl: string
    persistDir: string
    /** The private half of the development key pair that stands in for Cloudflare Access. */
    accessPrivateJwk: JsonWebKey & { kid: string }
    /** The Node the vitest process runs on (test/node/node-version.test.ts). */
    vitestNode: string
  }
}
