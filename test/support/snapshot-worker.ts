// The worker that makes the test catalog's snapshot, once a run, in Miniflare's workerd (started
// by test/node/catalog-snapshot.ts before the workers project): the schema of every database,
// then the catalog imported by the import's own code (catalog-import.ts) into control and the
// shards of the run's layout, and its gate; then the same catalog imported again, from the
// migrated schema, on the other layout: what a test holds the run's layout to (other-layout.ts).
import type { D1Migration } from '@cloudflare/vitest-plugin'
import { databasesOf } from '../../src/data/databases'
import type { CatalogInput } from './catalog-import'
import { importShardedCatalog } from './catalog-import'
import type { DatabaseDump, KvEntry } from './snapshot'
import { dumpDatabase, dumpKv, restoreDatabase } from './snapshot'

export interface SnapshotRequest {
  /** Each D1 binding's migrations, in order. */
  migrations: Record<string, D1Migration[]>
  input: CatalogInput
}

/** What every test file restores (test/setup.ts, test/support/sharded-catalog.ts). */
export interface CatalogSnapshot {
  /** Each database right after its migrations, by binding: where the import started from. */
  migrated: Record<string, DatabaseDump>
  /** GATE after the import: the gate, built from control's directory. */
  gate: KvEntry[]
  /** Every database (control, each shard) after the import on the run's layout, by binding. */
  sharded: Record<string, DatabaseDump>
  /** The same catalog imported on the other layout (`two` beside `one`, `one` beside the rest). */
  other: { layout: string; databases: Record<string, DatabaseDump> }
}

/** The layout a test holds `layout` to: the one-shard layout, or beside it the two-shard one. */
export const otherLayout = (layout: string) => (layout === 'one' ? 'two' : 'one')

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
  await importShardedCatalog(databasesOf(env), env.GATE, input)
  const [sharded, gate] = await Promise.all([dumpEach(env, bindings), dumpKv(env.GATE)])
  for (const binding of bindings)
    await restoreDatabase(d1(env, binding), migrated[binding] as DatabaseDump)
  const layout = otherLayout(env.SHARD_LAYOUT)
  await importShardedCatalog(databasesOf({ ...env, SHARD_LAYOUT: layout }), env.GATE, input)
  const other = { layout, databases: await dumpEach(env, bindings) }
  return { migrated, gate, sharded, other } satisfies CatalogSnapshot
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
