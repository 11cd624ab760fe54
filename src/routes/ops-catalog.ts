import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { readCapped } from '../request/form-post'
import { opsCaller } from '../request/ops-caller'
import type { ReplaySelection } from '../sync/dead-letters'
import { replayDeadLetters } from '../sync/dead-letters'
import { enqueueChanges, MAX_SYNC_BODY_BYTES } from '../sync/enqueue'
import { MAX_MESSAGES, validateMessages } from '../sync/messages'

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

/** The largest replay body: a list of ids. */
const MAX_REPLAY_BYTES = 64 * 1024

/**
 * `POST /__ops/catalog/replay` with the same bearer token and `{"ids": [12, 13]}` (those dead
 * letters) or `{}` (the open ones, MAX_MESSAGES at a time): sends them back to the queue
 * (`replayDeadLetters`, as the ops console does) and answers what was replayed, what is still
 * invalid, and how many stay open. `npm run sync -- replay` calls it.
 */
export async function replayEndpoint(c: Context<AppEnv>): Promise<Response> {
  const headers = { 'cache-control': 'no-store' }
  const caller = await opsCaller(c, c.env.SYNC_TOKEN, c.env.SYNC_FAILURES, 'sync')
  if (!('who' in caller)) return caller.refusal
  const body = await readCapped(c.req.raw, MAX_REPLAY_BYTES)
  const selection = body === null ? null : replaySelection(body)
  if (!selection)
    return c.json(
      { error: 'send {"ids": [whole numbers]} or {} for every open dead letter' },
      400,
      headers,
    )
  const replay = await replayDeadLetters(
    c.env.CONTROL,
    c.env.CATALOG_CHANGES,
    selection,
    caller.who,
  )
  if ('missing' in replay)
    return c.json({ error: 'no such dead letters', missing: replay.missing }, 404, headers)
  if ('error' in replay) return c.json(replay, 503, { ...headers, 'retry-after': '10' })
  return c.json({ ...replay, by: caller.who }, 200, headers)
}

function replaySelection(body: string): ReplaySelection | null {
  let json: unknown
  try {
    json = JSON.parse(body || '{}')
  } catch {
    return null
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null
  const { ids } = json as { ids?: unknown }
  if (ids === undefined) return 'open'
  const whole = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) > 0
  return Array.isArray(ids) && ids.length > 0 && ids.length <= MAX_MESSAGES && ids.every(whole)
    ? { ids }
    : null
}
