import type { Config } from '../flags/definitions'

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
 * Sets the security headers of a response in place: the policy names `nonce` on HTML only
 * (a 304 has no content type, so no nonce), and the tag manager only on HTML whose `config`
 * turns it on. `config` is the one the response was rendered with, read only for HTML: a
 * read of it counts towards the page's variant, which only documents key on.
 */
export function secure(
  headers: Headers,
  nonce: string,
  browserDsn: string,
  config: Pick<Config, 'tagManagerEnabled'>,
): void {
  const html = headers.get('content-type')?.startsWith('text/html') ?? false
  for (const [name, value] of ALWAYS) headers.set(name, value)
  const scripts = html ? { nonce, tagManager: config.tagManagerEnabled } : null
  headers.set('content-security-policy', policy(scripts, browserDsn))
}

/**
 * No script but this site's, this response's inline ones and, when the page loads it, the tag
 * manager's; no framing; reports to Sentry.
 */
export function policy(
  scripts: { nonce: string; tagManager: boolean } | null,
  browserDsn: string,
): string {
  const sentry = originOf(browserDsn)
  const inline = scripts ? ` 'nonce-${scripts.nonce}'` : ''
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
