// The test catalog every file starts from is the import's own result: the set-up restores rows
// the import left once for the run (test/node/catalog-snapshot.ts), and here the import runs
// again, inside the pool, from each database's migrated schema, and must leave exactly those rows
// in control and the shards (each value with its SQLite type) and the same gate. Then what the
// set-up and shardedCatalog() restore must read back as the snapshot (docs/testing.md).
import { env } from 'cloudflare:workers'
import { describe, expect, inject, it } from 'vitest'
import { shardBindingName } from '../../src/catalog/placement'
import { databasesOf } from '../../src/data/databases'
import type { CatalogInput } from '../support/catalog-import'
import { importShardedCatalog } from '../support/catalog-import'
import { snapshotPart } from '../support/catalog-snapshot'
import { shardedCatalog } from '../support/sharded-catalog'
import type { DatabaseDump } from '../support/snapshot'
import { dumpDatabase, dumpKv, restoreDatabase } from '../support/snapshot'

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
  it('is what the set-up restored into the gate', async () => {
    const gate = await snapshotPart('gate')
    expect(gate.length).toBeGreaterThan(0)
    expect(await dumpKv(env.GATE)).toEqual(gate)
  })

  it(
    'is what the import across control and the shards leaves in each, and the gate',
    async () => {
      const [migrated, sharded] = await Promise.all([
        snapshotPart('migrated'),
        snapshotPart('sharded'),
      ])
      // Control and the shards put back to their migrated rows (the set-up restored the catalog).
      const all = [databases.control, ...databases.shards]
      const bindings = ['CONTROL', ...databases.shards.map((_, n) => shardBindingName(n))]
      await Promise.all(all.map((db, i) => restoreDatabase(db, named(migrated, bindings[i] ?? ''))))
      await env.GATE.delete((await dumpKv(env.GATE)).map((e) => e.key)[0] ?? '')
      expect(await Promise.all(all.map(dumpDatabase))).toEqual(
        bindings.map((b) => named(migrated, b)),
      )
      expect(await dumpKv(env.GATE)).toEqual([])
      await importShardedCatalog(databases, env.GATE, input())
      expect(await Promise.all(all.map(dumpDatabase))).toEqual(
        bindings.map((b) => named(sharded, b)),
      )
      expect(await dumpKv(env.GATE)).toEqual(await snapshotPart('gate'))
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
