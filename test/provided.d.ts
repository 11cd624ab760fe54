import type { D1Migration } from 'cloudflare:test'

declare module 'vitest' {
  export interface ProvidedContext {
    migrations: D1Migration[]
    /** INSERT statements of the test catalog (scripts/seed/test-catalog.ts). */
    catalogSql: string[]
    catalogNow: string
  }
}
