import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { pageOfDataPath } from '../urls/data-prefix'
import { entityId } from '../urls/paths'
import { TAG } from './tags'
import { purgesKnown } from './generations'
import type { EntryMeta, Freshness } from './entry-meta'
import { assess } from './entry-meta'
import type { HotPage, HotPages } from './hot-pages'
import { contentTag, ifNoneMatchHits } from './etag'
import type { NonceFree } from '../lib/nonce'
import { cutAtNonce, includesText, withoutNonce } from '../lib/nonce'
import { PENDING_BOUNDARY } from '../views/render-html'
import { sentBytes } from '../views/coalesce'
import { hashedScripts } from '../lib/script-hashes'
import { policy as securityPolicy } from '../lib/content-security-policy'
import type { Policy } from './policies'
import { cacheControl, GONE_TTL, NOT_FOUND_TTL, REDIRECT_TTL } from './policies'
import { servable, storedResponse, withoutBodyHeaders } from './stored-response'

/** Renders a request through the whole app: how a stale page is refreshed in the background. */
export type Rerender = (
  request: Request,
  env: Env,
  ctx: Context<AppEnv>['executionCtx'],
) => Promise<Response>

const META = 'x-edge-meta'

/**
 * The edge cache in front of a page (the Workers Cache API, `caches.default`). The key is the
 * path as routed, the query as the page reads it and the variant of the flags that shaped the
 * page; purges are generations (src/cache/generations.ts). Only complete, error-free renders of
 * 200 (and briefly an entity's 301, 404 and 410) are stored, never anything with Set-Cookie:
 * visitor cookies are added after this step.
 */
export function edgeCache(policy: Policy, rerender: Rerender): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const trail = c.get('trail')
    const reporter = c.get('reporter')
    const { hotPages, purges, refreshes } = c.get('memory')
    // The request's decided key: the path as routed, the query as the page reads it, the variant.
    const { key } = c.get('decision')
    const now = Date.now()
    if (key === null) {
      // A query the page refuses: its 400 is rendered, never looked up nor stored.
      trail.add('cache', 'bypass')
      await next()
      await store(c, policy, null, '', now)
      return
    }
    const isRefresh = refreshes.isRefresh(c.req.raw)
    let cache: Cache | null
    let stored: HotPage | undefined
    try {
      cache = caches.default
      if (!isRefresh)
        stored = hotPages.recall(key) ?? (await remembered(hotPages, key, await cache.match(key)))
    } catch (error) {
      // The cache failing is no reason to fail a page: it is served uncached.
      reporter.problem('cache: unavailable, serving uncached', { error: String(error) })
      cache = null
    }
    const meta = servable(stored, c.get('bot'))
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p)
    // Only a stored copy needs the purges; until a cold isolate knows them, its copy may be a
    // purged one, so it is rendered again (`unverified`), never served as it is.
    const verified = meta ? await purgesKnown(purges, c.env.DB, waitUntil, reporter.problem) : false
    // A miss keeps them current too, in the background: they decide which session the next
    // render reads through, and whether this one is stored (`fromCurrentData`).
    if (!meta) purges.refreshIfDue(c.env.DB, waitUntil, reporter.problem)
    c.set('readTags', tagsKnown(c, key, stored?.meta))
    let freshness: Freshness | 'unverified' = !meta
      ? 'gone'
      : verified
        ? assess(meta, now, purges.newestOf(meta.tags))
        : 'unverified'
    trail.add('cache', isRefresh ? 'refresh' : freshness)

    if (stored && meta && freshness === 'fresh') return serve(c, stored, 'HIT', now)
    // One render of this page in the background, at a time per page (none from a refresh).
    const again = async () => {
      const request = isRefresh ? null : refreshes.start(key, c.req.raw)
      if (!request) return
      await rerender(request, c.env, c.executionCtx)
        .then((res) => res.body?.cancel())
        .catch((error: unknown) =>
          reporter.problem('cache: refresh failed', { error: String(error) }),
        )
        .finally(() => refreshes.done(key))
    }
    if (stored && meta && freshness === 'stale') {
      c.executionCtx.waitUntil(again())
      return serve(c, stored, 'STALE', now)
    }

    await next()
    // Rendering failed: a copy kept for this serves instead (stale-if-error), but never a purged
    // one: a purge is a removal (a takedown must not come back), so the error page goes out. A
    // copy whose purges were not current stands in only if they have been read meanwhile.
    if (c.res.status >= 500 && meta && freshness === 'unverified' && purges.current) {
      freshness = assess(meta, now, purges.newestOf(meta.tags))
    }
    // After next(), Hono ignores a returned response, so it replaces c.res.
    const standsIn = freshness === 'expired' || freshness === 'stale' || freshness === 'fresh'
    if (c.res.status >= 500 && stored && meta && standsIn)
      replace(c, serve(c, stored, 'STALE', now))
    else await store(c, policy, cache, key, now, again)
  }
}

/** A stored page as the visitor gets it, or a 304 for a matching ETag. */
function serve(
  c: Context<AppEnv>,
  stored: HotPage,
  status: 'HIT' | 'STALE',
  now: number,
): Response {
  return storedResponse(stored, status, now, c.req.header('if-none-match'), c.get('nonce'))
}

/**
 * Decides whether a fresh render is stored, sets its caching headers and stores it in waitUntil.
 * A crawler's render was complete before its first byte (React's `allReady`), so it is held
 * here until its ETag is known: a crawler gets the ETag, and its 304, on a miss too.
 */
async function store(
  c: Context<AppEnv>,
  policy: Policy,
  cache: Cache | null,
  key: string,
  now: number,
  again: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const res = c.res
  const windows = lifetimes(policy, res, now)
  const headers = new Headers(res.headers)
  const storable = cache !== null && windows !== null && !res.headers.has('set-cookie')
  headers.set('x-cache', storable ? 'MISS' : 'BYPASS')
  if (windows) headers.set('cache-control', windows.cacheControl)
  if (!storable || !cache || !windows) {
    replace(c, new Response(res.body, { status: res.status, headers }))
    return
  }
  const meta: Omit<EntryMeta, 'complete' | 'etag' | 'nonce'> & { nonce: string } = {
    storedAt: now,
    ...windows,
    nonce: c.get('nonce'),
    tags: [
      TAG.url(pageOfDataPath(c.req.path)),
      ...(res.headers
        .get('cache-tag')
        ?.split(',')
        .map((t) => t.trim()) ?? []),
    ],
  }
  const keep = async (rendered: Uint8Array, cut: NonceFree, etag: string | null) => {
    // Only error-free renders: a page with a section that failed is never stored.
    if (c.get('renderFailed')) return
    // Nor one that read a flag its key does not name: another variant may differ.
    const stray = c.get('flags').stray()
    if (stray.length) {
      c.get('reporter').problem('cache: page read flags its variant does not key on', { stray })
      return
    }
    rememberTags(c, key, meta.tags)
    // A render from a replica that may have missed a purge of its tags goes to its visitor but
    // is not stored; the page is rendered again at once, at the bookmark those tags now need.
    if (!(await fromCurrentData(c, meta.tags))) return again()
    const complete = !includesText(rendered, PENDING_BOUNDARY)
    // The visitor's response has headers of its own by now: these become the stored copy's.
    headers.delete('server-timing')
    if (etag) headers.set('etag', etag)
    // Sent as it is, with its scripts' hashes; but the tag manager passes the nonce it finds
    // on to the scripts it adds, so a page that loads it gets a nonce of its own each time.
    const sentAsIs = !c.get('flags').config.tagManagerEnabled
    const hashed = sentAsIs ? await hashedScripts(rendered, meta.nonce, cut) : null
    if (hashed)
      headers.set(
        'content-security-policy',
        securityPolicy({ hashes: hashed.hashes, tagManager: false }, c.env.SENTRY_BROWSER_DSN),
      )
    const entry: EntryMeta = { ...meta, nonce: hashed ? null : meta.nonce, complete, etag }
    const stored = hashed?.body ?? rendered
    c.get('memory').hotPages.remember(key, hotPage(res.status, headers, entry, stored))
    headers.set(META, JSON.stringify(entry))
    headers.set('cache-control', `public, max-age=${Math.ceil((meta.keepUntil - now) / 1000)}`)
    await cache.put(key, new Response(stored, { status: res.status, headers }))
  }
  const failed = (error: unknown) =>
    c.get('reporter').problem('cache: store failed', { error: String(error) })

  if (c.get('bot')) {
    const body = new Uint8Array(await new Response(res.body).arrayBuffer())
    const cut = withoutNonce(body, meta.nonce)
    const etag = c.get('renderFailed') ? null : await etagOf(res.status, cut)
    if (etag) headers.set('etag', etag)
    const notModified = etag !== null && ifNoneMatchHits(c.req.header('if-none-match'), etag)
    replace(
      c,
      notModified
        ? new Response(null, { status: 304, headers: withoutBodyHeaders(headers) })
        : new Response(body, { status: res.status, headers }),
    )
    c.executionCtx.waitUntil(keep(body, cut, etag).catch(failed))
    return
  }
  // A render's bytes are kept as they are sent (src/views/coalesce.ts), and it goes out as it
  // is, its caching headers set in place; any other body is split in two. A redirect has none:
  // stored as an empty one.
  let whole: Promise<Uint8Array> | null | undefined = sentBytes(res.body)
  if (whole) {
    res.headers.set('x-cache', 'MISS')
    res.headers.set('cache-control', windows.cacheControl)
  } else {
    const [toVisitor, toCache] = res.body ? res.body.tee() : [null, null]
    whole = toCache && new Response(toCache).arrayBuffer().then((b) => new Uint8Array(b))
    replace(c, new Response(toVisitor, { status: res.status, headers }))
  }
  c.executionCtx.waitUntil(
    (async () => {
      const body = (await whole) ?? new Uint8Array(0)
      const cut = withoutNonce(body, meta.nonce)
      await keep(body, cut, await etagOf(res.status, cut))
    })().catch(failed),
  )
}

/**
 * Whether a render read data no older than the purges of its tags. The primary is always
 * current. A replica may lag it by up to REPLICATION_WINDOW_MS, so a render from one is stored
 * only once the isolate knows every purge recorded before the render began (asking the primary
 * if need be), and each purge of the page's tags in that window before it was one the session
 * included (by the bookmark it was opened at, or where it stood once read): else a data change
 * and its purge, just made, could lose to the replica's older copy (docs/data.md).
 */
async function fromCurrentData(c: Context<AppEnv>, tags: readonly string[]): Promise<boolean> {
  const session = c.get('readSession')
  // A render that read nothing through this request's session (a 404 the gate or the page table
  // decided, a page from kept data) has no replica data to be behind.
  if (session?.since == null || c.get('timing').count('d1') === 0) return true
  const { purges } = c.get('memory')
  if (!(await purges.completeBefore(session.since, c.env.DB, c.get('reporter').problem)))
    return false
  return purges.readCovers(tags, session.since, session.covers, session.reached?.() ?? null)
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
function tagsKnown(c: Context<AppEnv>, key: string, meta: EntryMeta | undefined): string[] {
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

function rememberTags(c: Context<AppEnv>, key: string, tags: readonly string[]): void {
  const kept = c.get('memory').pageTags
  if (kept.size >= PAGE_TAGS_KEPT && !kept.has(key)) kept.clear()
  kept.set(key, tags)
}

/**
 * The ETag of a render: of a 200 only, named by what it holds (its body without the nonce), so
 * every refill of the same page, anywhere, has the same ETag.
 */
async function etagOf(status: number, cut: NonceFree): Promise<string | null> {
  return status === 200 ? contentTag(cut.body) : null
}

/** Answers kept briefly, whatever the page's policy, and for how long (seconds). */
const BRIEFLY: Readonly<Partial<Record<number, number>>> = {
  301: REDIRECT_TTL,
  404: NOT_FOUND_TTL,
  410: GONE_TTL,
}

/**
 * How long a render may be served: by policy for 200, briefly for an entity's redirect, 404 and
 * 410, never otherwise.
 */
function lifetimes(
  policy: Policy,
  res: Response,
  now: number,
): Omit<EntryMeta, 'storedAt' | 'tags' | 'etag' | 'nonce' | 'complete'> | null {
  const brief = BRIEFLY[res.status]
  if (brief !== undefined) {
    const ttl = brief * 1000
    const until = now + ttl
    return {
      freshUntil: until,
      staleUntil: until,
      keepUntil: until,
      cacheControl: `public, max-age=0, s-maxage=${ttl / 1000}`,
    }
  }
  if (res.status !== 200) return null
  // A page that expires (a job's closing moment) is never served past it, not even stale.
  const expires = Date.parse(res.headers.get('expires') ?? '')
  const cap = (t: number) => (Number.isNaN(expires) ? t : Math.min(t, expires))
  const freshUntil = cap(now + policy.sMaxage * 1000)
  if (freshUntil <= now) return null
  return {
    freshUntil,
    staleUntil: cap(freshUntil + policy.swr * 1000),
    keepUntil: cap(freshUntil + policy.staleIfError * 1000),
    cacheControl: cacheControl({ ...policy, sMaxage: Math.floor((freshUntil - now) / 1000) }),
  }
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

function hotPage(status: number, headers: Headers, meta: EntryMeta, body: Uint8Array): HotPage {
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

/** Hono merges the old response's headers into a new one; a page's own must win here. */
function replace(c: Context<AppEnv>, res: Response): void {
  c.res = undefined
  c.res = res
}
