/**
 * Cloudflare Turnstile's origin: its widget's script and the frame it draws the check in, on the
 * guest message form (docs/hardening.md, "Turnstile").
 */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com'

/** The tag manager's script origin: allowed only on HTML whose configuration turns it on. */
const TAG_MANAGER = 'https://www.googletagmanager.com'

/** The inline scripts a document may run: those with its nonce, or those with these hashes. */
export type InlineScripts = { nonce: string } | { hashes: readonly string[] }

/**
 * The Content-Security-Policy: no script but this site's, this response's inline ones, Turnstile's
 * and, when the page loads it, the tag manager's; no frame but Turnstile's; no framing; reports to Sentry. Built on the way out
 * (src/request/security-headers.ts) and for stored copies sent as they are.
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
    `script-src 'self'${inline}${tagManager} ${TURNSTILE_ORIGIN}`,
    `frame-src ${TURNSTILE_ORIGIN}`,
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
