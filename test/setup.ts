// Runs in workerd before every test file, in that file's own storage and modules (so the
// worker's app starts with nothing kept in memory): control's schema and each shard's, from
// their two folders (docs/scale.md), then the test catalog in control and the shards and its
// gate, restored from the rows the import's own code left once for the run
// (test/node/catalog-snapshot.ts: its change messages validated and routed in batches, then each
// database's ratings, stats and directory derived once, and the gate built from the directory).
import { applyD1Migrations } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { inject } from 'vitest'
import { databasesOf } from '../src/data/databases'
import { snapshotPart } from './support/catalog-snapshot'
import { shardedCatalog } from './support/sharded-catalog'
import { restoreKv } from './support/snapshot'

// Each database's schema at once (separate databases: none waits on another's), while the
// catalog's rows are fetched; the rows go in once every schema is there. The shards of the other
// layout too, which tests holding the run to it restore (test/support/other-layout.ts).
const { control, shards } = databasesOf(env)
const other = env.SHARD_LAYOUT === 'one' ? 'two' : 'one'
const otherShards = databasesOf({ ...env, SHARD_LAYOUT: other }).shards
const schemas = Promise.all([
  applyD1Migrations(control, inject('controlMigrations')),
  ...[...new Set([...shards, ...otherShards])].map((shard) =>
    applyD1Migrations(shard, inject('catalogMigrations')),
  ),
])
await Promise.all([
  shardedCatalog(schemas),
  snapshotPart('gate').then((entries) => restoreKv(env.GATE, entries)),
])
