import type { D1Migration } from '@cloudflare/vitest-pool-workers'

declare module 'vitest' {
  export interface ProvidedContext {
    migrations: D1Migration[]
    /** INSERT statements of the test catalog (scripts/seed/test-catalog.ts). */
    catalogSql: string[]
    catalogNow: string
    /** The Sentry capture server of test/node/sentry-capture.ts. */
    sentryOrigin: string
  }
}
