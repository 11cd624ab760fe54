import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { readCapped } from '../request/form-post'
import { opsCaller } from '../request/ops-caller'
import { enqueueChanges, MAX_SYNC_BODY_BYTES } from '../sync/enqueue'
import { validateMessages } from '../sync/messages'

/**
 * `POST /__ops/catalog` with `Authorization: Bearer <token>` (SYNC_TOKEN, failures limited by
 * SYNC_FAILURES: `opsCaller`) and a JSON array of catalog messages (docs/sync.md). The whole batch is
 * validated first: 422 with every refused message and its reasons, and nothing enqueued; else
 * every message is sent to CATALOG_CHANGES and the answer is 202 with the counts per kind.
 */
export async function catalogEndpoint(c: Context<AppEnv>): Promise<Response> {
  const headers = { 'cache-control': 'no-store' }
  const caller = await opsCaller(c, c.env.SYNC_TOKEN, c.env.SYNC_FAILURES, 'sync')
  if (!('who' in caller)) return caller.refusal
  const { who } = caller

  const body = await readCapped(c.req.raw, MAX_SYNC_BODY_BYTES)
  if (body === null)
    return c.json(
      { error: `body over ${MAX_SYNC_BODY_BYTES} bytes: send smaller batches` },
      413,
      headers,
    )
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return c.json({ error: 'body is not JSON: send a JSON array of messages' }, 400, headers)
  }
  const validation = validateMessages(json)
  if (!validation.ok)
    return c.json(
      { error: 'batch refused, nothing enqueued', refused: validation.refused },
      422,
      headers,
    )

  const sent = await enqueueChanges(c.env.CATALOG_CHANGES, validation.messages)
  if ('error' in sent) {
    c.get('reporter').problem('sync: enqueue failed', {
      error: sent.error,
      enqueued: sent.enqueued,
    })
    // Messages are idempotent: sending the whole batch again is safe.
    return c.json(
      { error: 'queue unavailable, send the batch again', enqueued: sent.enqueued },
      503,
      { ...headers, 'retry-after': '10' },
    )
  }
  const kinds: Record<string, number> = {}
  for (const m of validation.messages) kinds[m.kind] = (kinds[m.kind] ?? 0) + 1
  return c.json({ accepted: validation.messages.length, kinds, by: who }, 202, headers)
}
