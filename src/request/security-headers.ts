import type { MiddlewareHandler } from 'hono'
import type { Config } from '../flags/definitions'
import { CONFIG_DEFAULTS } from '../flags/definitions'
import type { AppEnv } from '../env'
import { newNonce } from './nonce'

/** The tag manager's script origin: allowed only on HTML whose configuration turns it on. */
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
 * with this response's nonce, or the one a stored copy brings. The nonce is made here, before
 * anything renders: fresh renders write it, so no two renders share one; a page served again is
 * sent with its scripts' hashes, or with this nonce in place of its old one
 * (src/request/script-hashes.ts, src/request/nonce.ts).
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  const nonce = newNonce()
  c.set('nonce', nonce)
  await next()
  // As the views read it: a response answered before the flags step was rendered with defaults.
  const config = c.get('flags')?.config ?? CONFIG_DEFAULTS
  try {
    secure(c.res.headers, nonce, c.env.SENTRY_BROWSER_DSN, config)
  } catch {
    // A response whose headers are immutable (one fetched as it is) is copied once.
    const res = c.res
    const headers = new Headers(res.headers)
    secure(headers, nonce, c.env.SENTRY_BROWSER_DSN, config)
    c.res = undefined
    c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers })
  }
}

/**
 * Sets the security headers of a response in place: the policy names `nonce` on HTML only
 * (a 304 has no content type, so no nonce), and the tag manager only on HTML whose `config`
 * turns it on. `config` is the one the response was rendered with, read only for HTML: a
 * read of it counts towards the page's variant, which only documents key on. A response that
 * already has a policy keeps it: a stored copy sent as it is brings the one naming its scripts'
 * hashes (src/request/script-hashes.ts).
 */
export function secure(
  headers: Headers,
  nonce: string,
  browserDsn: string,
  config: Pick<Config, 'tagManagerEnabled'>,
): void {
  for (const [name, value] of ALWAYS) headers.set(name, value)
  if (headers.has('content-security-policy')) return
  const html = headers.get('content-type')?.startsWith('text/html') ?? false
  const scripts = html ? { nonce, tagManager: config.tagManagerEnabled } : null
  headers.set('content-security-policy', policy(scripts, browserDsn))
}

/** The inline scripts a document may run: those with its nonce, or those with these hashes. */
export type InlineScripts = { nonce: string } | { hashes: readonly string[] }

/**
 * No script but this site's, this response's inline ones and, when the page loads it, the tag
 * manager's; no framing; reports to Sentry.
 */
export function policy(
  scripts: (InlineScripts & { tagManager: boolean }) | null,
  browserDsn: string,
): string {
  const sentry = originOf(browserDsn)
  const inline = !scripts
    ? ''
    : 'nonce' in scripts
      ? ` 'nonce-${scripts.nonce}'`
      : scripts.hashes.map((h) => ` ${h}`).join('')
  const tagManager = scripts?.tagManager ? ` ${TAG_MANAGER}` : ''
  return [
    "default-src 'self'",
    `script-src 'self'${inline}${tagManager}`,
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
