// The test catalog in control and the shards (docs/scale.md), once per test file: the set-up
// (test/setup.ts) restores it before every file, and a test that reads them may call it to have
// them (a second call loads nothing). Restored from the rows the import across databases and its
// end per database left once for the run (test/node/catalog-snapshot.ts).
import { env } from 'cloudflare:workers'
import { shardBindingName } from '../../src/catalog/placement'
import type { Databases } from '../../src/data/databases'
import { databasesOf } from '../../src/data/databases'
import { snapshotPart } from './catalog-snapshot'
import { restoreDatabase } from './snapshot'

let loaded: Promise<Databases> | null = null

/**
 * Control and the shards holding the test catalog, its stats and directory derived; the set-up
 * passes `schemas`, its migrations under way, so that the rows are fetched meanwhile.
 */
export function shardedCatalog(schemas?: Promise<unknown>): Promise<Databases> {
  loaded ??= load(schemas)
  return loaded
}

async function load(schemas?: Promise<unknown>): Promise<Databases> {
  const databases = databasesOf(env)
  const [sharded] = await Promise.all([snapshotPart('sharded'), schemas])
  const dumpOf = (binding: string) => {
    const dump = sharded[binding]
    if (!dump) throw new Error(`the test catalog's snapshot has no ${binding}`)
    return dump
  }
  await Promise.all([
    restoreDatabase(databases.control, dumpOf('CONTROL')),
    ...databases.shards.map((db, n) => restoreDatabase(db, dumpOf(shardBindingName(n)))),
  ])
  return databases
}
