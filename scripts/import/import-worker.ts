// The import's side in workerd: a small worker that applies each batch of validated messages
// with the statements of src/sync/apply.ts in one D1 batch, with its checkpoint, next to the
// database. Node sends it one request per batch (host.ts); a D1 binding driven from Node
// instead costs a round trip per statement prepared, about a hundred times slower.
import type { CatalogMessage } from '../../src/sync/messages'
import type { Checkpoint } from './checkpoint'
import { readCheckpoint } from './checkpoint'
import { readGate } from '../../src/gate/gate-store'
import { applyChanges } from '../../src/sync/apply'
import { finishImport, rebuildGate } from './finish'
import { applyImported, d1Target } from './import-lines'

export interface BatchRequest {
  messages: CatalogMessage[]
  checkpoint: Checkpoint | null
}

/** A migration file of `migrations/`: its name and its SQL, any number of statements. */
export interface Migration {
  name: string
  sql: string
}

/** Migrations for the D1 binding named (DB, CONTROL or a shard: docs/scale.md). */
export interface MigrateRequest {
  binding: string
  migrations: Migration[]
}

export interface QueryRequest {
  sql: string
  params?: unknown[]
}

type ImportEnv = Pick<Env, 'DB' | 'GATE'>

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url)
    try {
      switch (pathname) {
        case '/batch': {
          const { messages, checkpoint } = await request.json<BatchRequest>()
          await applyImported(env.DB, messages, checkpoint)
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
          await applyChanges(env.DB, messages)
          return new Response(null, { status: 204 })
        }
        case '/answers':
          return Response.json(await d1Target(env.DB).answers())
        case '/checkpoint':
          return Response.json(await readCheckpoint(env.DB))
        case '/finish': {
          const { now } = await request.json<{ now: string }>()
          return Response.json(await finishImport(env, new Date(now)))
        }
        case '/gate': {
          const { now, ifMissing } = await request.json<{ now: string; ifMissing: boolean }>()
          if (ifMissing && (await readGate(env.GATE))) return Response.json(null)
          return Response.json(await rebuildGate(env, new Date(now)))
        }
        case '/query': {
          const { sql, params = [] } = await request.json<QueryRequest>()
          return Response.json(
            (
              await env.DB.prepare(sql)
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
