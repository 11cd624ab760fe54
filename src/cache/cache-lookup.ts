import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { pageOfDataPath } from '../urls/data-prefix'
import { entityId } from '../urls/paths'
import type { EntryMeta } from './entry-meta'
import type { HotPage, HotPages } from './hot-pages'
import { cutAtNonce } from '../lib/nonce'
import { storedResponse } from './stored-response'
import { TAG } from './tags'

/** The stored copy's metadata, in a header of the Cache API's copy. */
export const META = 'x-edge-meta'

/**
 * The edge cache's lookup of `key`: the isolate's hot page, else the Cache API's copy (then kept
 * in memory too). A refresh looks nothing up: it renders. `cache` is null when the Cache API
 * failed: the page is then served uncached, never failed.
 */
export async function lookUp(
  c: Context<AppEnv>,
  key: string,
  isRefresh: boolean,
): Promise<{ cache: Cache | null; stored: HotPage | undefined }> {
  const { hotPages } = c.get('memory')
  try {
    const cache = caches.default
    if (isRefresh) return { cache, stored: undefined }
    const stored = hotPages.recall(key) ?? (await remembered(hotPages, key, await cache.match(key)))
    return { cache, stored }
  } catch (error) {
    c.get('reporter').problem('cache: unavailable, serving uncached', { error: String(error) })
    return { cache: null, stored: undefined }
  }
}

/** A stored page as the visitor gets it, or a 304 for a matching ETag. */
export function serve(
  c: Context<AppEnv>,
  stored: HotPage,
  status: 'HIT' | 'STALE',
  now: number,
): Response {
  return storedResponse(stored, status, now, c.req.header('if-none-match'), c.get('nonce'))
}

/** Pages whose tags an isolate keeps for choosing their next render's session. */
const PAGE_TAGS_KEPT = 5_000

/** The tag each route parameter names, as pages tag themselves (docs/caching.md, "Tags"). */
const PARAM_TAGS: Readonly<Record<string, (value: string) => string>> = {
  city: TAG.city,
  service: TAG.service,
  jobService: TAG.service,
  state: TAG.state,
  keyword: TAG.keyword,
  segment: TAG.segment,
}

/**
 * The tags a page is known to carry before it renders: its URL's, its route parameters', its
 * stored copy's, and those of its last render in this isolate (the providers on its cards are
 * only known once it has rendered).
 */
export function tagsKnown(c: Context<AppEnv>, key: string, meta: EntryMeta | undefined): string[] {
  const path = pageOfDataPath(c.req.path)
  const tags = new Set([TAG.url(path), ...(meta?.tags ?? [])])
  for (const [name, value] of Object.entries(c.req.param())) {
    const tag = PARAM_TAGS[name]
    if (tag) tags.add(tag(value.toLowerCase()))
  }
  const id = entityId(c.req.param('slug') ?? '')
  if (id !== null) tags.add(path.startsWith('/job/') ? TAG.job(id) : TAG.provider(id))
  for (const tag of c.get('memory').pageTags.get(key) ?? []) tags.add(tag)
  return [...tags]
}

export function rememberTags(c: Context<AppEnv>, key: string, tags: readonly string[]): void {
  const kept = c.get('memory').pageTags
  if (kept.size >= PAGE_TAGS_KEPT && !kept.has(key)) kept.clear()
  kept.set(key, tags)
}

/** A copy read from the Cache API, kept in memory for the next request too. */
async function remembered(hotPages: HotPages, key: string, stored: Response | undefined) {
  const meta = stored ? readMeta(stored) : null
  if (!stored || !meta) return undefined
  const body = new Uint8Array(await stored.arrayBuffer())
  const page = hotPage(stored.status, stored.headers, meta, body)
  hotPages.remember(key, page)
  return page
}

export function hotPage(
  status: number,
  headers: Headers,
  meta: EntryMeta,
  body: Uint8Array,
): HotPage {
  const kept = new Headers(headers)
  kept.delete(META)
  kept.set('cache-control', meta.cacheControl)
  return {
    status,
    headers: kept,
    meta,
    parts: meta.nonce === null ? [body] : cutAtNonce(body, meta.nonce),
    bytes: body.byteLength,
  }
}

/** The stored metadata, or null for a copy this code cannot serve (another format). */
function readMeta(stored: Response): EntryMeta | null {
  try {
    const meta = JSON.parse(stored.headers.get(META) ?? 'null') as Partial<EntryMeta> | null
    return meta && (typeof meta.nonce === 'string' || meta.nonce === null)
      ? (meta as EntryMeta)
      : null
  } catch {
    return null
  }
}
