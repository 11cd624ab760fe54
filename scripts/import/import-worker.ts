// The import's side in workerd: a small worker that applies each batch of validated messages,
// routed to control and the shards of its layout (docs/scale.md), each database's part one D1
// batch with its checkpoint, next to the databases. Node sends it one request per batch
// (host.ts); a D1 binding driven from Node instead costs a round trip per statement prepared,
// about a hundred times slower.
import type { CatalogMessage } from '../../src/sync/messages'
import type { Checkpoint } from './checkpoint'
import type { Databases } from '../../src/data/databases'
import { databasesOf } from '../../src/data/databases'
import { readGate } from '../../src/gate/gate-store'
import { applyRouted } from '../../src/sync/routed-apply'
import { finishImport, rebuildGate } from './finish'
import { shardedTarget } from './sharded'

export interface BatchRequest {
  messages: CatalogMessage[]
  checkpoint: Checkpoint | null
}

/** A migration file of `migrations/`: its name and its SQL, any number of statements. */
export interface Migration {
  name: string
  sql: string
}

/** Migrations for the D1 binding named (CONTROL or a shard: docs/scale.md). */
export interface MigrateRequest {
  binding: string
  migrations: Migration[]
}

export interface QueryRequest {
  sql: string
  params?: unknown[]
  /** The D1 binding to query: CONTROL unless named. */
  binding?: string
}

/** The worker's bindings: GATE, CONTROL and the shards of SHARD_LAYOUT (host.ts binds them). */
type ImportEnv = Pick<Env, 'CONTROL' | 'GATE' | 'SHARD_LAYOUT'>

type Sharded = { target: ReturnType<typeof shardedTarget>; checkpoint: Checkpoint | null }

/** The import across databases, its placements read back once (kept between requests). */
let sharded: Promise<Sharded> | null = null

function shardedOf(env: ImportEnv): Promise<Sharded> {
  sharded ??= (async () => {
    const target = shardedTarget(databasesOf(env))
    return { target, checkpoint: await target.resume() }
  })()
  return sharded
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url)
    try {
      switch (pathname) {
        case '/batch': {
          const { messages, checkpoint } = await request.json<BatchRequest>()
          const items = messages.map((message) => ({ message, text: '' }))
          await (await shardedOf(env)).target.apply(items, checkpoint)
          return new Response(null, { status: 204 })
        }
        case '/migrate': {
          const { binding, migrations } = await request.json<MigrateRequest>()
          await migrate(d1Binding(env, binding), migrations)
          return new Response(null, { status: 204 })
        }
        case '/changes': {
          // As the queue consumer applies a batch, derivation and purges included (the bench).
          const { messages } = await request.json<BatchRequest>()
          const { retry, failures } = await applyRouted(databasesOf(env), messages)
          if (retry.length) throw new Error(failures.map((f) => f.error).join('; '))
          return new Response(null, { status: 204 })
        }
        case '/replay': {
          // A re-pack's changes since the export (docs/scale.md), applied as the queue consumer
          // applies a batch: versions make a message the databases already hold a no-op.
          const { messages } = await request.json<{ messages: CatalogMessage[] }>()
          await replay(env, messages)
          return new Response(null, { status: 204 })
        }
        case '/answers':
          return Response.json(await (await shardedOf(env)).target.answers())
        case '/checkpoint':
          // A resumed import starts here: where every database got to, read afresh.
          sharded = null
          return Response.json((await shardedOf(env)).checkpoint)
        case '/finish': {
          const { now } = await request.json<{ now: string }>()
          return Response.json(await finishImport(databasesOf(env), env.GATE, new Date(now)))
        }
        case '/wipe':
          // The seed replaces the catalog: control's and the shards' part of it too.
          await wipeSharded(databasesOf(env))
          sharded = null
          return new Response(null, { status: 204 })
        case '/gate': {
          const { now, ifMissing } = await request.json<{ now: string; ifMissing: boolean }>()
          if (ifMissing && (await readGate(env.GATE))) return Response.json(null)
          return Response.json(await rebuildGate(env.CONTROL, env.GATE, new Date(now)))
        }
        case '/query': {
          const { sql, params = [], binding = 'CONTROL' } = await request.json<QueryRequest>()
          return Response.json(
            (
              await d1Binding(env, binding)
                .prepare(sql)
                .bind(...params)
                .all()
            ).results,
          )
        }
      }
      return new Response('not found', { status: 404 })
    } catch (error) {
      // D1's refusal, for the import to name in its rejects.
      return new Response(error instanceof Error ? error.message : String(error), { status: 422 })
    }
  },
} satisfies ExportedHandler<ImportEnv>

/**
 * Applies `messages` with the routed apply of the queue consumer; throws, naming why, when any
 * message would be retried (a database failed, or it names what no database holds), so that the
 * import splits the batch down to the line at fault.
 */
async function replay(env: ImportEnv, messages: CatalogMessage[]): Promise<void> {
  const outcome = await applyRouted(databasesOf(env), messages)
  if (outcome.retry.length === 0) return
  const why = outcome.failures.map((f) => `${f.database}: ${f.error}`).join('; ')
  throw new Error(why || 'it names a city, provider or job no database holds')
}

/** The D1 binding `name` of the worker's environment (control and shards are bound by name). */
function d1Binding(env: ImportEnv, name: string): D1Database {
  const value: unknown = Reflect.get(env, name)
  if (typeof value === 'object' && value !== null && 'batch' in value) return value as D1Database
  throw new Error(`the import worker has no D1 binding ${name}`)
}

/**
 * Applies the migrations not yet recorded, as `wrangler d1 migrations apply --local` does: each
 * in one D1 batch with its row in wrangler's own d1_migrations table (the same schema), so
 * wrangler sees them applied. Local D1 runs every statement of a prepared text, as wrangler's
 * split of the file into statements would. Here rather than by wrangler: its own process and
 * workerd took longer to start than the migrations take to run.
 */
async function migrate(db: D1Database, migrations: Migration[]): Promise<void> {
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS d1_migrations(
         id         INTEGER PRIMARY KEY AUTOINCREMENT,
         name       TEXT UNIQUE,
         applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
       )`,
    )
    .run()
  const { results } = await db.prepare('SELECT name FROM d1_migrations').all<{ name: string }>()
  const applied = new Set(results.map((r) => r.name))
  for (const { name, sql } of migrations) {
    if (applied.has(name)) continue
    await db.batch([
      db.prepare(sql),
      db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(name),
    ])
  }
}

/** Control's catalog tables: what the import writes there and derives (docs/scale.md). */
const CONTROL_CATALOG = [
  'catalog_meta',
  'city_additions',
  'zip_codes',
  'activities',
  'provider_directory',
  'job_directory',
  'directory_tombstones',
  'outbox_applied',
  'service_city_stats',
  'job_city_stats',
  'rate_experience_stats',
  'city_service_mixes',
  'service_state_stats',
  'rate_experience_state_stats',
  'activity_stats',
  'activity_ends',
  'sync_versions',
  'sync_touched',
  'cities',
]

/**
 * Empties control's catalog tables and every table of each shard (all of a shard is catalog),
 * their schema kept; each database in one batch, its references checked at the batch's end.
 */
async function wipeSharded({ control, shards }: Databases): Promise<void> {
  const wipe = (db: D1Database, tables: readonly string[]) =>
    db.batch([
      db.prepare('PRAGMA defer_foreign_keys = on'),
      ...tables.map((table) => db.prepare(`DELETE FROM ${table}`)),
    ])
  await wipe(control, CONTROL_CATALOG)
  for (const shard of shards) {
    const tables = await shard
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table'
            AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'`,
      )
      .raw<[string]>()
    await wipe(
      shard,
      tables.map(([name]) => name),
    )
  }
}
