import type { Context } from 'hono'
import { recordPurge } from '../cache/generations'
import {
  FAILURE_WINDOW_MS,
  isLockedOut,
  MAX_BODY_BYTES,
  purgeRequestSchema,
  purgeTags,
  recordFailure,
  tokenName,
} from '../cache/purge'
import type { AppEnv } from '../env'

/**
 * `POST /__ops/purge` with `Authorization: Bearer <token>` and `{"urls": [...], "tags": [...]}`.
 * The token is checked here, before anything is read; a wrong or missing one purges nothing.
 * Every purge is written to the audit log in D1 (`npm run purge -- --log`).
 */
export async function purgeEndpoint(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now()
  const address = c.req.header('cf-connecting-ip') ?? 'unknown'
  const headers = { 'cache-control': 'no-store' }
  if (isLockedOut(address, now)) {
    return c.json({ error: 'too many failed attempts' }, 429, {
      ...headers,
      'retry-after': String(FAILURE_WINDOW_MS / 1000),
    })
  }
  const who = await tokenName(c.req.header('authorization'), c.env.PURGE_TOKEN)
  if (!who) {
    recordFailure(address, now)
    return c.json({ error: 'unauthorized' }, 401, { ...headers, 'www-authenticate': 'Bearer' })
  }

  const body = await readCapped(c.req.raw, MAX_BODY_BYTES)
  if (body === null) return c.json({ error: `body over ${MAX_BODY_BYTES} bytes` }, 413, headers)
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return c.json({ error: 'body is not JSON' }, 400, headers)
  }
  const parsed = purgeRequestSchema.safeParse(json)
  if (!parsed.success)
    return c.json({ error: parsed.error.issues.map((i) => i.message).join('; ') }, 400, headers)
  const purge = purgeTags(parsed.data, c.env.PUBLIC_ORIGIN)
  if ('error' in purge) return c.json({ error: purge.error }, 400, headers)

  await recordPurge(c.env.PURGES, purge.tags, now)
  const at = new Date(now).toISOString()
  await c.env.DB.prepare(
    'INSERT INTO purge_log (at, token_name, urls, tags, purged) VALUES (?, ?, ?, ?, ?)',
  )
    .bind(at, who, JSON.stringify(purge.paths), JSON.stringify(parsed.data.tags), purge.tags.length)
    .run()
  console.log(
    JSON.stringify({ message: 'purge', who, urls: purge.paths, tags: parsed.data.tags, at }),
  )
  return c.json(
    { purged: { urls: purge.paths.length, tags: parsed.data.tags.length }, at, by: who },
    200,
    headers,
  )
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
