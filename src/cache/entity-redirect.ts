import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import type { EntityKind } from '../gate/gate-filter'
import { entityId } from '../urls/paths'
import { REDIRECT_TTL } from './policies'
import type { CacheTag } from './tags'
import { TAG } from './tags'

/**
 * Before the edge cache of an entity's page (a profile, a job): a request for an entity this
 * isolate knows, under a name part other than its own (`/p/any-name-8`), is the redirect to its
 * path at once, with no D1 read and no cache entry for the made-up name (docs/caching.md). The
 * path is learnt from the page's own answers, rendered or stored: a 200 is at it, a 301 names it.
 */
export function knownEntityPath(kind: EntityKind): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = entityId(c.req.param('slug') ?? '')
    if (id === null) return next()
    const tag = TAG[kind](id)
    const { entityPaths, purges } = c.get('memory')
    const known = entityPaths.pathOf(tag)
    if (known === undefined || known === c.req.path) {
      await next()
      const { status, headers } = c.res
      const path = status === 200 ? c.req.path : status === 301 ? headers.get('location') : null
      if (path) entityPaths.learn(tag, path)
      return
    }
    // As a stored copy is served: the purges are read again in the background when due.
    const reporter = c.get('reporter')
    purges.refreshIfDue(c.env.CONTROL, (p) => c.executionCtx.waitUntil(p), reporter.problem)
    const res = entityRedirect(c, known, [tag])
    res.headers.set('cache-control', `public, max-age=0, s-maxage=${REDIRECT_TTL}`)
    return res
  }
}

/**
 * An entity asked for under another slug: a 301 to its canonical path, tagged as its page is, so
 * a purge of the entity (a rename) reaches the redirect the edge cache keeps briefly.
 */
export function entityRedirect(
  c: Context<AppEnv>,
  path: string,
  tags: readonly CacheTag[],
): Response {
  const res = c.redirect(path, 301)
  const pageType = c.get('page').target.pageType ?? 'other'
  res.headers.set('cache-tag', [TAG.page(pageType), ...tags].join(','))
  return res
}
