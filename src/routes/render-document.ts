import type { Context } from 'hono'
import type { ReactElement } from 'react'
import { isValidElement } from 'react'
import type { AppEnv } from '../env'
import type { PageContext } from '../flags/page-context'
import { isDataPath } from '../urls/data-prefix'
import type { IndexDecision } from '../seo/indexability'
import { robotsOf, seoGateHeader } from '../seo/indexability'
import type { PageView } from '../views/render-document'
import { renderParts } from '../views/render-document'
import type { DataLayer, Site } from '../views/site-context'
import type { CacheTag } from '../cache/tags'
import { TAG } from '../cache/tags'

export interface PageOptions {
  status?: number
  /** Whether the page is indexable (src/seo/indexability.ts): X-Robots-Tag and x-seo-gate. */
  decision: IndexDecision
  headers?: Record<string, string>
  /** Cache-Tag: what a purge can name this page by (service, city, entity); the page type is added. */
  tags?: readonly CacheTag[]
  /** When the page's data last changed (ISO 8601): Last-Modified. */
  lastModified?: string | null
  /** Analytics beyond what the URL tells (page id, page kind). */
  analytics?: Partial<DataLayer>
}

/**
 * The one way a route answers with a page: its view (its document alone, with the main it renders
 * apart, or what a views/ module makes of it) rendered with the headers every page carries, decided before the first byte; for a
 * listing at `/_data{path}`, its state as JSON for client navigation (docs/browser.md). What
 * the render returns beside the response, its bytes, is handed on to the edge cache.
 */
export async function renderDocument(
  c: Context<AppEnv>,
  view: PageView | ReactElement,
  options: PageOptions,
): Promise<Response> {
  const page: PageView = isValidElement(view) ? { document: view } : view
  const site = siteOf(c, options.analytics)
  const headers = pageHeaders(c, site, options)
  if ('state' in page && isDataPath(c.req.path)) {
    // The JSON of a page is never a page of its own in a search index.
    headers['x-robots-tag'] = 'noindex'
    return c.json(page.state, 200, headers)
  }
  headers['x-robots-tag'] = robotsOf(options.decision)
  headers['x-seo-gate'] = seoGateHeader(options.decision)
  const rendered = await renderParts(
    site,
    c.get('memory').fragments,
    'state' in page ? page.parts() : page,
    {
      status: options.status ?? 200,
      headers,
      waitForAll: c.get('bot'),
      onStreamError: (error) => {
        c.set('renderFailed', true)
        c.get('reporter').problem('render: a streamed section failed', { error: String(error) })
      },
    },
  )
  c.set('rendered', rendered)
  return rendered.response
}

/** Headers of every page and page state: caching tags, dates, server timing. */
function pageHeaders(
  c: Context<AppEnv>,
  site: Site,
  { headers: extra = {}, tags = [], lastModified }: PageOptions,
): Record<string, string> {
  const headers: Record<string, string> = {
    ...extra,
    'server-timing': c.get('timing').header(),
    'cache-tag': [TAG.page(site.dataLayer.pageType ?? 'other'), ...tags].join(','),
  }
  if (lastModified) headers['last-modified'] = new Date(lastModified).toUTCString()
  return headers
}

/** The request's flags and configuration for views, and its nonce for inline scripts. */
export function siteOf(c: Context<AppEnv>, analytics: Partial<DataLayer> = {}): Site {
  const flags = c.get('flags')
  const page = c.get('page')
  return {
    on: flags.on,
    config: flags.config,
    nonce: c.get('nonce'),
    browser: { dsn: c.env.SENTRY_BROWSER_DSN || null, environment: c.env.ENVIRONMENT },
    turnstileSiteKey: c.env.TURNSTILE_SITE_KEY || null,
    dataLayer: dataLayerOf(page, analytics),
    path: c.req.path,
  }
}

/** The tag manager data layer of a request routed to `page`. */
export function dataLayerOf(page: PageContext, analytics: Partial<DataLayer> = {}): DataLayer {
  const target = page.target
  return {
    pageType: target.pageType ?? null,
    pageId: null,
    pageKind: page.pageKind,
    vertical: target.vertical ?? null,
    service: target.service ?? null,
    city: target.city ?? null,
    ...analytics,
  }
}
