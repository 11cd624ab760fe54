import type { Context } from 'hono'
import type { PurgeAudit, Refusal } from '../cache/purge-audit'
import { writeAudit } from '../cache/purge-audit'
import { MAX_BODY_BYTES, purgeRequestSchema, purgeTags } from '../cache/purge'
import { runPurge } from '../cache/run-purge'
import type { AppEnv } from '../env'
import { readCapped } from '../request/form-post'
import { opsCaller } from '../request/ops-caller'

/**
 * `POST /__ops/purge` with `Authorization: Bearer <token>` and `{"urls": [...], "tags": [...]}`.
 * A missing or wrong token purges nothing and counts against PURGE_FAILURES (`opsCaller`: 401,
 * then 429). Every request is written to the
 * audit log (`npm run purge -- --log`) with what it came to; refusals without a valid token are
 * counted per outcome and minute rather than written one by one.
 */
export async function purgeEndpoint(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now()
  const at = new Date(now).toISOString()
  const headers = { 'cache-control': 'no-store' }
  const audit = async (entry: Omit<PurgeAudit, 'at'>) => {
    const failed = await writeAudit(c.env.CONTROL, { at, ...entry })
    if (failed) c.get('reporter').problem('purge: audit row not written', { error: failed })
    return failed === null
  }
  const refused = { urls: [], tags: [], purged: 0 }

  const caller = await opsCaller(c, c.env.PURGE_TOKEN, c.env.PURGE_FAILURES, 'purge')
  if (!('who' in caller)) {
    const outcome: Refusal = caller.locked
      ? 'refused: locked out (429)'
      : 'refused: unauthorized (401)'
    c.get('memory').purgeRefusals.count(
      outcome,
      at,
      c.env.CONTROL,
      (p) => c.executionCtx.waitUntil(p),
      c.get('reporter').problem,
    )
    return caller.refusal
  }
  const { who } = caller

  const request = await readPurgeRequest(c.req.raw, c.env.PUBLIC_ORIGIN)
  if ('error' in request) {
    await audit({ who, ...refused, outcome: `refused: ${request.error.slice(0, 200)}` })
    return c.json({ error: request.error }, request.status, headers)
  }

  const outcome = await runPurge(
    { db: c.env.CONTROL, known: c.get('memory').purges, problem: c.get('reporter').problem },
    who,
    request,
    now,
  )
  const logged = outcome.auditId !== null
  if ('failed' in outcome)
    return c.json({ error: 'purge not recorded, try again', logged }, 503, {
      ...headers,
      'retry-after': '10',
    })
  return c.json(
    { purged: { urls: request.paths.length, tags: request.tags.length }, at, by: who, logged },
    200,
    headers,
  )
}

/** The purge a request body asks for, or why it is refused (with its status). */
async function readPurgeRequest(
  request: Request,
  origin: string,
): Promise<
  { paths: string[]; tags: string[]; bumped: string[] } | { error: string; status: 400 | 413 }
> {
  const body = await readCapped(request, MAX_BODY_BYTES)
  if (body === null) return { error: `body over ${MAX_BODY_BYTES} bytes`, status: 413 }
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return { error: 'body is not JSON', status: 400 }
  }
  const parsed = purgeRequestSchema.safeParse(json)
  if (!parsed.success)
    return { error: parsed.error.issues.map((i) => i.message).join('; '), status: 400 }
  const purge = purgeTags(parsed.data, origin)
  if ('error' in purge) return { error: purge.error, status: 400 }
  return { paths: purge.paths, tags: parsed.data.tags, bumped: purge.tags }
}
