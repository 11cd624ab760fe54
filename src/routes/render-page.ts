import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { AppEnv } from '../env'
import type { IndexDecision } from '../seo/indexability'
import { robotsOf, seoGateHeader } from '../seo/indexability'
import { renderHtml } from '../views/render-html'

/** Renders a page with the headers every page carries, decided before the first byte. */
export function renderPage(
  c: Context<AppEnv>,
  node: ReactNode,
  {
    status = 200,
    decision,
    headers: extra = {},
  }: { status?: number; decision?: IndexDecision; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...extra, 'server-timing': c.var.timing.header() }
  if (decision) {
    headers['x-robots-tag'] = robotsOf(decision)
    headers['x-seo-gate'] = seoGateHeader(decision)
  }
  return renderHtml(node, {
    status,
    headers,
    waitForAll: c.var.bot,
    onStreamError: (error) =>
      console.error(
        JSON.stringify({
          message: 'render: streamed section failed',
          path: c.req.path,
          error: String(error),
        }),
      ),
  })
}

/** A promise handed to a streamed section: React reads its outcome, so an early rejection must
 * not also surface as an unhandled one. */
export function streamed<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined)
  return promise
}
