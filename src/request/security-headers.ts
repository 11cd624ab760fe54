import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'

/** The tag manager's script origin: allowed when the configuration turns the tag manager on. */
const TAG_MANAGER = 'https://www.googletagmanager.com'

/** Headers every response carries, whatever produced it (a page, an error, a 304, a redirect). */
const ALWAYS: Record<string, string> = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
}

/**
 * The outermost step: security headers on every response, and on HTML a Content-Security-Policy
 * with a nonce of this response. Inline scripts carry a nonce when rendered, but a stored page
 * is served many times: every `nonce` attribute of the outgoing document is rewritten to this
 * response's, so no two responses share one, fresh render or not.
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next()
  const res = c.res
  const headers = new Headers(res.headers)
  for (const [name, value] of Object.entries(ALWAYS)) headers.set(name, value)
  const html = res.headers.get('content-type')?.startsWith('text/html') ?? false
  const nonce = newNonce()
  headers.set('content-security-policy', policy(html ? nonce : null, c.env.SENTRY_BROWSER_DSN))
  const body =
    html && res.body
      ? new HTMLRewriter()
          .on('[nonce]', {
            element: (el) => {
              el.setAttribute('nonce', nonce)
            },
          })
          .transform(new Response(res.body)).body
      : res.body
  c.res = undefined
  c.res = new Response(body, { status: res.status, statusText: res.statusText, headers })
}

/** No script but this site's and this response's inline ones; no framing; reports to Sentry. */
export function policy(nonce: string | null, browserDsn: string): string {
  const sentry = originOf(browserDsn)
  return [
    "default-src 'self'",
    `script-src 'self'${nonce ? ` 'nonce-${nonce}' ${TAG_MANAGER}` : ''}`,
    "style-src 'self'",
    "img-src 'self' data: https:",
    `connect-src 'self'${sentry ? ` ${sentry}` : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** 16 random bytes, base64: a nonce. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
}

function originOf(url: string): string | null {
  try {
    return url ? new URL(url).origin : null
  } catch {
    return null
  }
}
