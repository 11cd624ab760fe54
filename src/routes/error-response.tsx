import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'
import { tagsOf } from '../observability/observe'
import type { Timing } from '../observability/timing'
import { SITE_NAME } from '../seo/head'
import { ErrorPage, errorTitle } from '../views/error-page'
import { renderHtml } from '../views/render-html'
import { SiteContext } from '../views/site-context'
import { siteOf } from './render-page'

/**
 * The one place errors become pages (STYLE habit 5). Expected outcomes arrive as
 * HTTPException; anything else is a 500 and is reported.
 */
export const onError: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof HTTPException) {
    return errorPage(c, error.status, error.status === 400 ? error.message : undefined)
  }
  c.var.reporter.error(error, tagsOf(c))
  return errorPage(c, 500)
}

export const notFound: NotFoundHandler<AppEnv> = (c) => errorPage(c, 404)

async function errorPage(c: Context<AppEnv>, status: number, detail?: string): Promise<Response> {
  const headers: Record<string, string> = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' }
  // Set by the first middleware; absent only if the request failed before it ran.
  const timing = c.get('timing') as Timing | undefined
  if (timing) headers['server-timing'] = timing.header()
  if (status === 405) headers.allow = 'GET, HEAD'
  const title = `${status}: ${errorTitle(status)}`
  try {
    const site = siteOf(c)
    return await renderHtml(
      <SiteContext.Provider value={site}>
        <ErrorPage
          status={status}
          detail={detail}
          head={{
            title: `${title} | ${SITE_NAME}`,
            description: title,
            robots: 'noindex',
            jsonLd: [],
          }}
        />
      </SiteContext.Provider>,
      { status, headers, waitForAll: true, onStreamError: () => undefined, nonce: site.nonce },
    )
  } catch {
    return new Response(title, {
      status,
      headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
    })
  }
}
