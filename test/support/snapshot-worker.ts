// The worker that makes the test catalog's snapshot, once a run, in Miniflare's workerd (started
// by test/node/catalog-snapshot.ts before the workers project): the schema of every database,
// then the catalog imported by the import's own code (catalog-import.ts) into DB and the gate,
// and then into control and the shards, each database's rows taken after its own import.
import type { D1Migration } from '@cloudflare/vitest-plugin'
import { databasesOf } from '../../src/data/databases'
import type { CatalogInput } from './catalog-import'
import { importCatalog, importShardedCatalog } from './catalog-import'
import type { DatabaseDump, KvEntry } from './snapshot'
import { dumpDatabase, dumpKv } from './snapshot'

export interface SnapshotRequest {
  /** Each D1 binding's migrations, in order. */
  migrations: Record<string, D1Migration[]>
  input: CatalogInput
}

/** What every test file restores (test/setup.ts, test/support/sharded-catalog.ts). */
export interface CatalogSnapshot {
  /** Each database right after its migrations, by binding: where the import started from. */
  migrated: Record<string, DatabaseDump>
  /** DB after the import into it. */
  db: DatabaseDump
  /** GATE after the import into DB: the gate. */
  gate: KvEntry[]
  /** Every other database (control, each shard) after the import across them, by binding. */
  sharded: Record<string, DatabaseDump>
}

function d1(env: Env, binding: string): D1Database {
  const db: unknown = Reflect.get(env, binding)
  if (typeof db !== 'object' || db === null || !('batch' in db))
    throw new Error(`no D1 binding ${binding}`)
  return db as D1Database
}

async function dumpEach(env: Env, bindings: string[]): Promise<Record<string, DatabaseDump>> {
  const dumps = await Promise.all(bindings.map((b) => dumpDatabase(d1(env, b))))
  return Object.fromEntries(bindings.map((b, i) => [b, dumps[i] as DatabaseDump]))
}

async function snapshot(env: Env, { migrations, input }: SnapshotRequest) {
  const bindings = Object.keys(migrations)
  for (const binding of bindings) {
    const db = d1(env, binding)
    for (const migration of migrations[binding] ?? [])
      await db.batch(migration.queries.map((sql) => db.prepare(sql)))
  }
  const migrated = await dumpEach(env, bindings)
  await importCatalog(env, input)
  const [db, gate] = await Promise.all([dumpDatabase(env.DB), dumpKv(env.GATE)])
  await importShardedCatalog(databasesOf(env), input)
  // DB's rows are restored in every file, the others' only where asked: they must not overlap.
  if (JSON.stringify(await dumpDatabase(env.DB)) !== JSON.stringify(db))
    throw new Error('the import across control and the shards changed DB')
  const sharded = await dumpEach(
    env,
    bindings.filter((b) => b !== 'DB'),
  )
  return { migrated, db, gate, sharded } satisfies CatalogSnapshot
}

export default {
  async fetch(request, env) {
    try {
      return Response.json(await snapshot(env, await request.json<SnapshotRequest>()))
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
      return new Response(text, { status: 500 })
    }
  },
} satisfies ExportedHandler<Env>
