// The test catalog in the one DB (the single database the import still loads beside control and
// the shards: docs/scale.md), once per test file and only in a file that asks: one that tests the
// single database's apply or compares what control and the shards hold with it. The set-up
// (test/setup.ts) restores control and the shards, which the pages and the consumer read.
import { env } from 'cloudflare:workers'
import { snapshotPart } from './catalog-snapshot'
import { restoreDatabase } from './snapshot'

let loaded: Promise<D1Database> | null = null

/** DB holding the test catalog, its stats derived, as the single database's import left it. */
export function singleCatalog(): Promise<D1Database> {
  loaded ??= snapshotPart('db').then(async (rows) => {
    await restoreDatabase(env.DB, rows)
    return env.DB
  })
  return loaded
}
