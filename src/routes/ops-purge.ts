import type { Context } from 'hono'
import { recordPurge } from '../cache/generations'
import type { PurgeAudit } from '../cache/purge-audit'
import { writeAudit } from '../cache/purge-audit'
import {
  FAILURE_WINDOW_MS,
  isLockedOut,
  MAX_BODY_BYTES,
  MAX_FAILURES,
  purgeRequestSchema,
  purgeTags,
  recordFailure,
  tokenName,
} from '../cache/purge'
import type { AppEnv } from '../env'

/**
 * `POST /__ops/purge` with `Authorization: Bearer <token>` and `{"urls": [...], "tags": [...]}`.
 * The token is checked here, before anything is read; a wrong or missing one purges nothing.
 * Every request is written to the audit log (`npm run purge -- --log`) with what it came to,
 * refusals included, whether the purge or the log's own D1 write failed or not.
 */
export async function purgeEndpoint(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now()
  const at = new Date(now).toISOString()
  const address = c.req.header('cf-connecting-ip') ?? 'unknown'
  const headers = { 'cache-control': 'no-store' }
  const audit = async (entry: Omit<PurgeAudit, 'at'>) => {
    const failed = await writeAudit(c.env.DB, { at, ...entry })
    if (failed) c.var.reporter.problem('purge: audit row not written', { error: failed })
    return failed === null
  }
  const refused = { urls: [], tags: [], purged: 0 }

  if (isLockedOut(address, now)) {
    // One row per lockout, not one per attempt: a flood cannot fill the log.
    if (recordFailure(address, now) === MAX_FAILURES + 1)
      await audit({ who: 'unknown', ...refused, outcome: 'refused: locked out (429)' })
    return c.json({ error: 'too many failed attempts' }, 429, {
      ...headers,
      'retry-after': String(FAILURE_WINDOW_MS / 1000),
    })
  }
  const who = await tokenName(c.req.header('authorization'), c.env.PURGE_TOKEN)
  if (!who) {
    recordFailure(address, now)
    await audit({ who: 'unknown', ...refused, outcome: 'refused: unauthorized (401)' })
    return c.json({ error: 'unauthorized' }, 401, { ...headers, 'www-authenticate': 'Bearer' })
  }

  const request = await readPurgeRequest(c.req.raw, c.env.PUBLIC_ORIGIN)
  if ('error' in request) {
    await audit({ who, ...refused, outcome: `refused: ${request.error.slice(0, 200)}` })
    return c.json({ error: request.error }, request.status, headers)
  }

  const { paths, tags, bumped } = request
  try {
    await recordPurge(c.var.memory.purges, c.env.DB, bumped, now)
  } catch (error) {
    const logged = await audit({
      who,
      urls: paths,
      tags,
      purged: 0,
      outcome: `failed: ${String(error)}`,
    })
    c.var.reporter.problem('purge: not recorded', { error: String(error) })
    return c.json({ error: 'purge not recorded, try again', logged }, 503, {
      ...headers,
      'retry-after': '10',
    })
  }
  const logged = await audit({ who, urls: paths, tags, purged: bumped.length, outcome: 'purged' })
  return c.json(
    { purged: { urls: paths.length, tags: tags.length }, at, by: who, logged },
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

/** The request body as text, or null when it is longer than `max` bytes. */
async function readCapped(request: Request, max: number): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? 0) > max) return null
  const reader = (request.body as ReadableStream<Uint8Array> | null)?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel()
      return null
    }
    chunks.push(value)
  }
  const all = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder().decode(all)
}
