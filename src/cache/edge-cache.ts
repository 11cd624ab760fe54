import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import type { NonceFree } from '../lib/nonce'
import { withoutNonce } from '../lib/nonce'
import { pageOfDataPath } from '../urls/data-prefix'
import { lookUp, rememberTags, serve, tagsKnown } from './cache-lookup'
import type { Freshness } from './entry-meta'
import { assess } from './entry-meta'
import { ifNoneMatchHits } from './etag'
import { purgesKnown } from './generations'
import type { Policy } from './policies'
import { fromCurrentData, storableHead, storableRender, UNREAD } from './storable'
import type { CopyOf } from './stored-page'
import { etagOf, storePage } from './stored-page'
import { servable, withoutBodyHeaders } from './stored-response'
import { TAG } from './tags'

/** Renders a request through the whole app: how a stale page is refreshed in the background. */
export type Rerender = (
  request: Request,
  env: Env,
  ctx: Context<AppEnv>['executionCtx'],
) => Promise<Response>

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
    const { purges, refreshes } = c.get('memory')
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
    const { cache, stored } = await lookUp(c, key, isRefresh)
    const meta = servable(stored, c.get('bot'))
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p)
    // Only a stored copy needs the purges; until a cold isolate knows them, its copy may be a
    // purged one, so it is rendered again (`unverified`), never served as it is.
    const verified = meta
      ? await purgesKnown(purges, c.env.CONTROL, waitUntil, reporter.problem)
      : false
    // A miss keeps them current too, in the background: they decide which session the next
    // render reads through, and whether this one is stored (`fromCurrentData`).
    if (!meta) purges.refreshIfDue(c.env.CONTROL, waitUntil, reporter.problem)
    c.set('readTags', tagsKnown(c, key, stored?.meta))
    let freshness: Freshness | 'unverified' = !meta
      ? 'gone'
      : verified
        ? assess(meta, now, purges.newestOf(meta.tags))
        : 'unverified'
    trail.add('cache', isRefresh ? 'refresh' : freshness)

    if (stored && meta && freshness === 'fresh') return serve(c, stored, 'HIT', now)
    const again = refreshOnce(c, key, isRefresh, rerender)
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

/**
 * One render of the page in the background, at a time per page (none from a refresh): how a
 * stale page is refreshed, and a render from a replica behind a purge is made again.
 */
function refreshOnce(
  c: Context<AppEnv>,
  key: string,
  isRefresh: boolean,
  rerender: Rerender,
): () => Promise<void> {
  const { refreshes } = c.get('memory')
  return async () => {
    const request = isRefresh ? null : refreshes.start(key, c.req.raw)
    if (!request) return
    await rerender(request, c.env, c.executionCtx)
      .then((res) => res.body?.cancel())
      .catch((error: unknown) =>
        c.get('reporter').problem('cache: refresh failed', { error: String(error) }),
      )
      .finally(() => refreshes.done(key))
  }
}

/**
 * Sets a fresh render's caching headers and, when it may be stored (src/cache/storable.ts),
 * stores it in waitUntil (src/cache/stored-page.ts). A crawler's render was complete before its
 * first byte (React's `allReady`), so it is held here until its ETag is known: a crawler gets
 * the ETag, and its 304, on a miss too.
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
  const { windows, notStored } = c.get('unread') ? UNREAD : storableHead(policy, cache, res, now)
  const headers = new Headers(res.headers)
  headers.set('x-cache', notStored ? 'BYPASS' : 'MISS')
  if (windows) headers.set('cache-control', windows.cacheControl)
  if (notStored || !cache || !windows) {
    replace(c, new Response(res.body, { status: res.status, headers }))
    return
  }
  const tags = [TAG.url(pageOfDataPath(c.req.path)), ...cacheTags(res)]
  const meta = { storedAt: now, ...windows, nonce: c.get('nonce'), tags }
  const copy: CopyOf = { key, status: res.status, headers, meta, cache, now }
  const keep = async (rendered: Uint8Array, cut: NonceFree, etag: string | null) => {
    if (storableRender(c)) return
    rememberTags(c, key, tags)
    // A render from a replica that may have missed a purge of its tags goes to its visitor but
    // is not stored; the page is rendered again at once, at the bookmark those tags now need.
    if (!(await fromCurrentData(c, tags))) return again()
    await storePage(c, copy, rendered, cut, etag)
  }
  const failed = (error: unknown) =>
    c.get('reporter').problem('cache: store failed', { error: String(error) })
  if (c.get('bot')) return storeWhole(c, headers, keep, failed)
  storeSent(c, headers, windows.cacheControl, keep, failed)
}

type Keep = (rendered: Uint8Array, cut: NonceFree, etag: string | null) => Promise<void>
type Failed = (error: unknown) => void

/** A crawler's render: read whole, sent with its ETag (or a 304), stored after. */
async function storeWhole(c: Context<AppEnv>, headers: Headers, keep: Keep, failed: Failed) {
  const res = c.res
  const body = new Uint8Array(await new Response(res.body).arrayBuffer())
  const cut = withoutNonce(body, c.get('nonce'))
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
}

/**
 * A person's render: the bytes its renderer returned beside the response (`rendered`: kept as
 * they are sent, src/views/coalesce.ts), and it goes out as it is, its caching headers set in
 * place; any other body is split in two. A redirect has none: stored as an empty one.
 */
function storeSent(
  c: Context<AppEnv>,
  headers: Headers,
  cacheControl: string,
  keep: Keep,
  failed: Failed,
): void {
  const res = c.res
  const rendered = c.get('rendered')
  // The render's own body, unless a step after the render replaced it.
  let whole = rendered && res.body && rendered.response.body === res.body ? rendered.whole() : null
  if (whole) {
    res.headers.set('x-cache', 'MISS')
    res.headers.set('cache-control', cacheControl)
  } else {
    const [toVisitor, toCache] = res.body ? res.body.tee() : [null, null]
    whole = toCache && new Response(toCache).arrayBuffer().then((b) => new Uint8Array(b))
    replace(c, new Response(toVisitor, { status: res.status, headers }))
  }
  c.executionCtx.waitUntil(
    (async () => {
      const body = (await whole) ?? new Uint8Array(0)
      const cut = withoutNonce(body, c.get('nonce'))
      await keep(body, cut, await etagOf(res.status, cut))
    })().catch(failed),
  )
}

/** The tags a render names in its Cache-Tag header. */
function cacheTags(res: Response): string[] {
  return (
    res.headers
      .get('cache-tag')
      ?.split(',')
      .map((t) => t.trim()) ?? []
  )
}

/** Hono merges the old response's headers into a new one; a page's own must win here. */
function replace(c: Context<AppEnv>, res: Response): void {
  c.res = undefined
  c.res = res
}
