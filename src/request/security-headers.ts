import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { newNonce } from './nonce'

/** The tag manager's script origin: allowed when the configuration turns the tag manager on. */
const TAG_MANAGER = 'https://www.googletagmanager.com'

/** Headers every response carries, whatever produced it (a page, an error, a 304, a redirect). */
const ALWAYS: [string, string][] = Object.entries({
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
})

/**
 * The outermost step: security headers on every response, and on HTML a Content-Security-Policy
 * with this response's nonce. The nonce is made here, before anything renders: fresh renders
 * write it, and pages served again put it in place of their old one (src/request/nonce.ts), so
 * no two responses share one.
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  const nonce = newNonce()
  c.set('nonce', nonce)
  await next()
  try {
    secure(c.res.headers, nonce, c.env.SENTRY_BROWSER_DSN)
  } catch {
    // A response whose headers are immutable (one fetched as it is) is copied once.
    const res = c.res
    const headers = new Headers(res.headers)
    secure(headers, nonce, c.env.SENTRY_BROWSER_DSN)
    c.res = undefined
    c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers })
  }
}

/**
 * Sets the security headers of a response in place: the policy names `nonce` on HTML only
 * (a 304 has no content type, so no nonce).
 */
export function secure(headers: Headers, nonce: string, browserDsn: string): void {
  const html = headers.get('content-type')?.startsWith('text/html') ?? false
  for (const [name, value] of ALWAYS) headers.set(name, value)
  headers.set('content-security-policy', policy(html ? nonce : null, browserDsn))
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

function originOf(url: string): string | null {
  try {
    return url ? new URL(url).origin : null
  } catch {
    return null
  }
}
