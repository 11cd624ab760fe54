// The test catalog in control and the shards (docs/scale.md), loaded through the import across
// databases and its end per database, once per test file and only in a file that asks: the
// set-up (test/setup.ts) loads DB alone, which the pages and the consumer still read, and a second
// import in every file would double its cost (docs/testing.md).
import { env } from 'cloudflare:workers'
import { inject } from 'vitest'
import { finishSharded } from '../../scripts/import/finish'
import { importLines } from '../../scripts/import/import-lines'
import { shardedTarget } from '../../scripts/import/sharded'
import type { Databases } from '../../src/data/databases'
import { databasesOf } from '../../src/data/databases'

let loaded: Promise<Databases> | null = null

/** Control and the shards holding the test catalog, its stats and directory derived. */
export function shardedCatalog(): Promise<Databases> {
  loaded ??= load()
  return loaded
}

async function load(): Promise<Databases> {
  const databases = databasesOf(env)
  const control = databases.control
  await importLines({
    target: shardedTarget(databases),
    lines: inject('catalogLines').map((text, i) => ({ line: i + 1, text })),
    file: null,
    reject: (line, reason) => {
      throw new Error(`the test catalog's line ${line} was rejected: ${reason}`)
    },
  })
  // ZIP codes are not change messages: control's table, as DB's, from the same statements.
  await control.batch(inject('zipStatements').map((sql) => control.prepare(sql)))
  await finishSharded(databases, new Date(inject('catalogNow')))
  return databases
}
