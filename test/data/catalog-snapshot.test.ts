// The test catalog every file starts from is the import's own result: the set-up restores rows
// the import left once for the run (test/node/catalog-snapshot.ts), and here the import runs
// again, inside the pool, from each database's migrated schema, and must leave exactly those rows
// (each value with its SQLite type) and the same gate. Then what the set-up and
// shardedCatalog() restore must read back as the snapshot (docs/testing.md).
import { env } from 'cloudflare:workers'
import { describe, expect, inject, it } from 'vitest'
import { shardBindingName } from '../../src/catalog/placement'
import { databasesOf } from '../../src/data/databases'
import type { CatalogInput } from '../support/catalog-import'
import { importCatalog, importShardedCatalog } from '../support/catalog-import'
import { snapshotPart } from '../support/catalog-snapshot'
import { shardedCatalog } from '../support/sharded-catalog'
import type { DatabaseDump } from '../support/snapshot'
import { dumpDatabase, dumpKv, restoreDatabase } from '../support/snapshot'
import { singleCatalog } from '../support/single-catalog'

// The one database's catalog, which this file holds control and the shards to (or reads as
// the single database's pages do): restored here, as the set-up restores only theirs.
await singleCatalog()

const input = (): CatalogInput => ({
  lines: inject('catalogLines'),
  zipStatements: inject('zipStatements'),
  now: inject('catalogNow'),
})

const databases = databasesOf(env)
const named = (dumps: Record<string, DatabaseDump>, binding: string): DatabaseDump => {
  const dump = dumps[binding]
  if (!dump) throw new Error(`the snapshot has no ${binding}`)
  return dump
}

/** The whole catalog imported again, or restored, in one test: more than a test's default time. */
const IMPORT_MS = 120_000

describe('the test catalog’s snapshot', () => {
  it('is what the set-up restored into DB and the gate', async () => {
    expect(await dumpDatabase(env.DB)).toEqual(await snapshotPart('db'))
    expect(await dumpKv(env.GATE)).toEqual(await snapshotPart('gate'))
  })

  it(
    'is what the import leaves in DB and the gate, from the migrated schema',
    async () => {
      const migrated = named(await snapshotPart('migrated'), 'DB')
      await restoreDatabase(env.DB, migrated)
      await env.GATE.delete((await dumpKv(env.GATE)).map((e) => e.key)[0] ?? '')
      expect(await dumpDatabase(env.DB)).toEqual(migrated)
      expect(await dumpKv(env.GATE)).toEqual([])
      await importCatalog(env, input())
      expect(await dumpDatabase(env.DB)).toEqual(await snapshotPart('db'))
      expect(await dumpKv(env.GATE)).toEqual(await snapshotPart('gate'))
    },
    IMPORT_MS,
  )

  it(
    'is what the import across control and the shards leaves in each',
    async () => {
      const [migrated, sharded] = await Promise.all([
        snapshotPart('migrated'),
        snapshotPart('sharded'),
      ])
      // Control and the shards put back to their migrated rows (the set-up restored the catalog).
      const all = [databases.control, ...databases.shards]
      const bindings = ['CONTROL', ...databases.shards.map((_, n) => shardBindingName(n))]
      await Promise.all(all.map((db, i) => restoreDatabase(db, named(migrated, bindings[i] ?? ''))))
      expect(await Promise.all(all.map(dumpDatabase))).toEqual(
        bindings.map((b) => named(migrated, b)),
      )
      await importShardedCatalog(databases, input())
      expect(await Promise.all(all.map(dumpDatabase))).toEqual(
        bindings.map((b) => named(sharded, b)),
      )
    },
    IMPORT_MS,
  )

  it(
    'is what shardedCatalog() restores into control and the shards',
    async () => {
      const sharded = await snapshotPart('sharded')
      const { control, shards } = await shardedCatalog()
      expect(await dumpDatabase(control)).toEqual(named(sharded, 'CONTROL'))
      for (const [n, shard] of shards.entries())
        expect(await dumpDatabase(shard)).toEqual(named(sharded, shardBindingName(n)))
    },
    IMPORT_MS,
  )
})
