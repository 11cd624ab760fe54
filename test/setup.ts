// Runs in workerd before every test file, in that file's own storage and modules (so the
// worker's app starts with nothing kept in memory): the schema from migrations/ (and control's
// and each shard's, from its two folders: docs/scale.md), then the test
// catalog loaded by the code of `npm run import` (its change messages, validated and applied in
// batches, then the ratings, stats and gate derived once).
import { applyD1Migrations } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { inject } from 'vitest'
import { d1Target, importLines } from '../scripts/import/import-lines'
import { finishImport } from '../scripts/import/finish'
import { databasesOf } from '../src/data/databases'

await applyD1Migrations(env.DB, inject('migrations'))
await applyD1Migrations(env.CONTROL, inject('controlMigrations'))
for (const shard of databasesOf(env).shards)
  await applyD1Migrations(shard, inject('catalogMigrations'))
const lines = inject('catalogLines')
await importLines({
  target: d1Target(env.DB),
  lines: lines.map((text, i) => ({ line: i + 1, text })),
  file: null,
  reject: (line, reason) => {
    throw new Error(`the test catalog's line ${line} was rejected: ${reason}`)
  },
})
await env.DB.batch(inject('zipStatements').map((sql) => env.DB.prepare(sql)))
await finishImport(env, new Date(inject('catalogNow')))
