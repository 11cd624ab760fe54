import type { Context } from 'hono'
import type { ReactElement, ReactNode } from 'react'
import { createElement } from 'react'
import type { AppEnv } from '../env'
import type { PageContext } from '../flags/page-context'
import { isDataPath } from '../urls/data-prefix'
import type { IndexDecision } from '../seo/indexability'
import { robotsOf, seoGateHeader } from '../seo/indexability'
import { frameMarkup } from '../views/document'
import { cardMarkup } from '../views/listing/card'
import { filterMarkup } from '../views/listing/islands'
import { mainMarkup } from '../views/main-markup'
import type { CardModel, ListingState } from '../views/listing/listing-state'
import type { ListingView } from '../views/listing/listing-layout'
import { ListingDocument } from '../views/listing/listing-layout'
import { Markup, Placement } from '../views/markup'
import { renderHtml } from '../views/render-html'
import type { DataLayer, Site } from '../views/site-context'
import { SiteContext } from '../views/site-context'
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
  /**
   * The page's own fragments rendered before it, beside the frame's (src/views/fragments.ts):
   * written into its `main` when it has one, else placed in its render.
   */
  markup?: readonly [unknown, string][]
  /**
   * The inside of the document's <main> up to the sections it streams (the document's
   * children), which never suspends: rendered apart by React's string renderer and placed
   * (src/views/main-markup.ts).
   */
  main?: ReactElement
  /** Where fragments rendered after the page's render started go (`placementOf`). */
  placement?: Placement
}

/** Renders a page with the headers every page carries, decided before the first byte. */
export function renderPage(
  c: Context<AppEnv>,
  node: ReactNode,
  options: PageOptions,
): Promise<Response> {
  const site = siteOf(c, options.analytics)
  const headers = pageHeaders(c, site, options)
  headers['x-robots-tag'] = robotsOf(options.decision)
  headers['x-seo-gate'] = seoGateHeader(options.decision)
  // React places a marker for each fragment, and the stream its bytes, encoded once.
  const placement = options.placement ?? placementOf(c)
  placement.add(frameMarkup(placement.fragments, site))
  if (options.main) placement.add([mainMarkup(site, options.main, new Map(options.markup))])
  else placement.add(options.markup ?? [])
  const page = createElement(Markup.Provider, { value: placement.markup }, node)
  return renderHtml(createElement(SiteContext.Provider, { value: site }, page), {
    status: options.status ?? 200,
    headers,
    nonce: site.nonce,
    splices: placement.splices,
    waitForAll: c.get('bot'),
    onStreamError: (error) => {
      c.set('renderFailed', true)
      c.get('reporter').problem('render: a streamed section failed', { error: String(error) })
    },
  })
}

/** Where a page's fragments go, for a route that places some after its render starts. */
export function placementOf(c: Context<AppEnv>): Placement {
  return new Placement(c.get('memory').fragments)
}

/**
 * Cards streamed after the shell, their markup rendered as their data arrives: the promise the
 * view reads resolves once their fragments are placed, so React finds them.
 */
export function placedCards(
  placement: Placement,
  cards: Promise<readonly CardModel[]>,
): Promise<readonly CardModel[]> {
  return streamed(
    cards.then((models) => {
      placement.add(cardMarkup(placement.fragments, models))
      return models
    }),
  )
}

/**
 * A listing page: its HTML at the page's path, or its state as JSON at `/_data{path}` for
 * client navigation (docs/browser.md). The view is only made for HTML.
 */
export async function renderListing(
  c: Context<AppEnv>,
  state: ListingState,
  view: () => ListingView,
  options: PageOptions,
): Promise<Response> {
  if (!isDataPath(c.req.path)) {
    const { fragments } = c.get('memory')
    const { head, main, streamed } = view()
    return renderPage(c, createElement(ListingDocument, { head, state }, streamed), {
      ...options,
      main,
      markup: [...cardMarkup(fragments, state.results.cards), filterMarkup(fragments, state)],
    })
  }
  const headers = pageHeaders(c, siteOf(c, options.analytics), options)
  // The JSON of a page is never a page of its own in a search index.
  headers['x-robots-tag'] = 'noindex'
  return c.json(state, 200, headers)
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

/** A promise handed to a streamed section: React reads its outcome, so an early rejection must
 * not also surface as an unhandled one. */
export function streamed<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined)
  return promise
}
