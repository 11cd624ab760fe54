import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { HTTPException } from 'hono/http-exception'
import { StorageError } from '../data/db'
import type { AppEnv } from '../env'
import type { PageContext } from '../flags/page-context'
import { tagsOf } from '../observability/observe'
import type { Timing } from '../observability/timing'
import { pageTitle } from '../seo/head'
import { ErrorPage, errorTitle } from '../views/error-page'
import { IncompleteDocument, renderHtml } from '../views/render-html'
import { isDataPath } from '../urls/data-prefix'
import { MethodNotAllowed } from '../request/normalise-request'
import { cutAtNonce, joinWithNonce, newNonce } from '../lib/nonce'
import { hashedScripts } from '../lib/script-hashes'
import { policy } from '../lib/content-security-policy'
import type { Site } from '../views/site-context'
import { SiteContext } from '../views/site-context'
import type { RenderedError } from '../views/rendered-errors'
import { RenderedErrors } from '../views/rendered-errors'
import { DEFAULT_FLAGS } from '../flags/request-flags'
import { dataLayerOf, siteOf } from './render-document'

/**
 * The one place errors become pages, and the only place that reports. Expected outcomes arrive
 * as HTTPException; anything else is a 500 and is reported.
 */
export const onError: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof MethodNotAllowed) return errorPage(c, 405, { allow: error.allow })
  if (error instanceof HTTPException) {
    return errorPage(c, error.status, error.status === 400 ? { detail: error.message } : {})
  }
  c.get('reporter').error(error, tagsOf(c))
  // Storage down is temporary: say when to come back, and let no cache keep the answer. So is
  // a section that failed while a crawler waited for the whole document: it is asked to come
  // back rather than index a page with a part missing.
  if (error instanceof StorageError || error instanceof IncompleteDocument) return errorPage(c, 503)
  return errorPage(c, 500)
}

/** How soon to try again after a 503. */
export const RETRY_AFTER_SECONDS = 30

export const notFound: NotFoundHandler<AppEnv> = (c) => errorPage(c, 404)

/**
 * The 404 page of a URL routed to `page` that the gate rejected (before any flag is read), as
 * the first such request rendered it, with the nonce it was given (none for a copy sent as it
 * is); null until one has.
 */
export function renderedNotFound(
  rendered: RenderedErrors,
  page: PageContext,
  timing: Timing,
): { res: Response; nonce: string } | null {
  const key = RenderedErrors.key(404, { ...dataLayerOf(page), city: null }, DEFAULT_FLAGS.variant)
  const found = rendered.get(key)
  if (found === undefined) return null
  const nonce = 'parts' in found ? newNonce() : ''
  return { res: again(found, nonce, 404, errorHeaders(404, timing)), nonce }
}

/** What an error page says beyond its status: a 400's reason, a 405's `Allow` header. */
interface ErrorDetail {
  detail?: string
  allow?: string
}

function errorHeaders(
  status: number,
  timing: Timing | undefined,
  allow?: string,
): Record<string, string> {
  const headers: Record<string, string> = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' }
  if (timing) headers['server-timing'] = timing.header()
  if (allow !== undefined) headers.allow = allow
  if (status === 503) headers['retry-after'] = String(RETRY_AFTER_SECONDS)
  return headers
}

async function errorPage(
  c: Context<AppEnv>,
  status: number,
  { detail, allow }: ErrorDetail = {},
): Promise<Response> {
  // Set by the first middleware; absent only if the request failed before it ran.
  const headers = errorHeaders(status, c.get('timing'), allow)
  // Data requests only ever get JSON (docs/browser.md): a missing page is `{"notFound": true}`.
  if (isDataPath(c.req.path)) {
    const body = status === 404 ? { notFound: true } : { error: detail ?? errorTitle(status) }
    return c.json(body, status as ContentfulStatusCode, headers)
  }
  const title = `${status}: ${errorTitle(status)}`
  try {
    const site = siteOf(c)
    // A URL that names nothing has no city: its slug is not data, and left out, every unknown
    // URL of a page type shares one rendered page.
    if (status === 404) site.dataLayer = { ...site.dataLayer, city: null }
    const renderedErrors = c.get('memory').renderedErrors
    const key = detail ? null : RenderedErrors.key(status, site.dataLayer, c.get('flags').variant)
    const rendered = key === null ? undefined : renderedErrors.get(key)
    if (rendered !== undefined) return again(rendered, site.nonce, status, headers)
    const render = await renderHtml(
      <SiteContext.Provider value={site}>
        <ErrorPage
          status={status}
          detail={detail}
          head={{
            title: pageTitle(`${title}`),
            description: title,
            robots: 'noindex',
            jsonLd: [],
          }}
        />
      </SiteContext.Provider>,
      { status, headers, waitForAll: true, onStreamError: () => undefined, nonce: site.nonce },
    )
    if (key === null) {
      c.set('rendered', render)
      return render.response
    }
    const page = new Uint8Array(await render.response.arrayBuffer())
    renderedErrors.set(key, await kept(page, site, c.env.SENTRY_BROWSER_DSN))
    return html(page, status, headers)
  } catch {
    return new Response(title, {
      status,
      headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
    })
  }
}

async function kept(page: Uint8Array, site: Site, browserDsn: string): Promise<RenderedError> {
  if (site.config.tagManagerEnabled) return { parts: cutAtNonce(page, site.nonce) }
  const { body, hashes } = await hashedScripts(page, site.nonce)
  return { body, policy: policy({ hashes, tagManager: false }, browserDsn) }
}

function again(
  rendered: RenderedError,
  nonce: string,
  status: number,
  headers: Record<string, string>,
): Response {
  if ('parts' in rendered) return html(joinWithNonce(rendered.parts, nonce), status, headers)
  return html(rendered.body, status, { ...headers, 'content-security-policy': rendered.policy })
}

function html(body: Uint8Array, status: number, headers: Record<string, string>): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  })
}
