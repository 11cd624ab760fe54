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
import { d1Target } from './import-lines'

export interface BatchRequest {
  messages: CatalogMessage[]
  checkpoint: Checkpoint | null
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
          await d1Target(env.DB).apply(messages, checkpoint)
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
