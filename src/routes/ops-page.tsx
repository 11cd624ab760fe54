import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { AppEnv } from '../env'
import type { OpsPerson } from '../request/ops-access'
import { consoleHeaders } from '../request/ops-access'
import { OPS_CONSOLE, OPS_FLAGS, OPS_HEALTH, OPS_PURGES } from '../urls/paths'
import { OpsDocument } from '../views/ops/ops-document'
import { renderHtml } from '../views/render-html'

/** A console page, rendered whole (nothing on it is worth streaming), never stored. */
export async function consolePage(
  c: Context<AppEnv>,
  person: OpsPerson,
  title: string,
  body: ReactNode,
  status = 200,
): Promise<Response> {
  const nonce = c.get('nonce')
  const nav = {
    home: OPS_CONSOLE,
    purges: OPS_PURGES,
    flags: OPS_FLAGS,
    health: OPS_HEALTH,
    email: person.email,
    role: person.role,
  }
  const rendered = await renderHtml(
    <OpsDocument title={title} nonce={nonce} nav={nav}>
      {body}
    </OpsDocument>,
    {
      status,
      headers: consoleHeaders(nonce),
      waitForAll: true,
      onStreamError: (error) => c.get('reporter').problem('ops console', { error: String(error) }),
    },
  )
  return rendered.response
}

/** A console answer as JSON, for its islands: never stored, never indexed, as its pages. */
export function consoleJson(c: Context<AppEnv>, body: unknown, status: 200 | 400 = 200): Response {
  const headers = { ...consoleHeaders(c.get('nonce')), 'content-type': 'application/json' }
  return new Response(JSON.stringify(body), { status, headers })
}

/**
 * A value as the console reads a URL in it: a URL of the host the console is served on (a
 * preview host, `npm start`'s localhost) names the same page as on the public origin.
 */
export function onPublicOrigin(c: Context<AppEnv>, value: string): string {
  const own = new URL(c.req.url).origin
  const v = value.trim()
  return v.startsWith(`${own}/`) ? c.env.PUBLIC_ORIGIN + v.slice(own.length) : v
}
