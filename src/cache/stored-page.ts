import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { policy as securityPolicy } from '../lib/content-security-policy'
import type { NonceFree } from '../lib/nonce'
import { includesText } from '../lib/nonce'
import { hashedScripts } from '../lib/script-hashes'
import { PENDING_BOUNDARY } from '../views/render-html'
import { hotPage, META } from './cache-lookup'
import type { EntryMeta } from './entry-meta'
import { contentTag } from './etag'

/** What a render's stored copy is made of, but its bytes. */
export interface CopyOf {
  key: string
  status: number
  /** The copy's headers: the visitor's response's, without what is only the visitor's. */
  headers: Headers
  /** The metadata but what the bytes tell (completeness, ETag, whether a nonce stays). */
  meta: Omit<EntryMeta, 'complete' | 'etag' | 'nonce'> & { nonce: string }
  cache: Cache
  now: number
}

/**
 * Stores a render: in the isolate's hot pages and the Cache API. A page that does not load the
 * tag manager is stored without its nonce, with its inline scripts' hashes in its policy, and
 * sent as it is from then on; the tag manager passes the nonce it finds on to the scripts it
 * adds, so a page that loads it keeps a nonce, made anew for each visitor.
 */
export async function storePage(
  c: Context<AppEnv>,
  copy: CopyOf,
  rendered: Uint8Array,
  cut: NonceFree,
  etag: string | null,
): Promise<void> {
  const { key, status, headers, meta, cache, now } = copy
  const complete = !includesText(rendered, PENDING_BOUNDARY)
  headers.delete('server-timing')
  if (etag) headers.set('etag', etag)
  const sentAsIs = !c.get('flags').config.tagManagerEnabled
  const hashed = sentAsIs ? await hashedScripts(rendered, meta.nonce, cut) : null
  if (hashed)
    headers.set(
      'content-security-policy',
      securityPolicy({ hashes: hashed.hashes, tagManager: false }, c.env.SENTRY_BROWSER_DSN),
    )
  const entry: EntryMeta = { ...meta, nonce: hashed ? null : meta.nonce, complete, etag }
  const stored = hashed?.body ?? rendered
  c.get('memory').hotPages.remember(key, hotPage(status, headers, entry, stored))
  headers.set(META, JSON.stringify(entry))
  headers.set('cache-control', `public, max-age=${Math.ceil((meta.keepUntil - now) / 1000)}`)
  await cache.put(key, new Response(stored, { status, headers }))
}

/**
 * The ETag of a render: of a 200 only, named by what it holds (its body without the nonce), so
 * every refill of the same page, anywhere, has the same ETag.
 */
export async function etagOf(status: number, cut: NonceFree): Promise<string | null> {
  return status === 200 ? contentTag(cut.body) : null
}
