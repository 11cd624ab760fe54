// Runs in workerd before every test file, in that file's own storage and modules (so the
// worker's app starts with nothing kept in memory): the schema from migrations/ (and control's
// and each shard's, from its two folders: docs/scale.md), then the test catalog in DB and its
// gate, restored from the rows the import's own code left once for the run
// (test/node/catalog-snapshot.ts: its change messages validated and applied in batches, then the
// ratings, stats and gate derived once).
import { applyD1Migrations } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { inject } from 'vitest'
import { databasesOf } from '../src/data/databases'
import { snapshotPart } from './support/catalog-snapshot'
import { restoreDatabase, restoreKv } from './support/snapshot'

await applyD1Migrations(env.DB, inject('migrations'))
await applyD1Migrations(env.CONTROL, inject('controlMigrations'))
for (const shard of databasesOf(env).shards)
  await applyD1Migrations(shard, inject('catalogMigrations'))
await Promise.all([
  snapshotPart('db').then((rows) => restoreDatabase(env.DB, rows)),
  snapshotPart('gate').then((entries) => restoreKv(env.GATE, entries)),
])
