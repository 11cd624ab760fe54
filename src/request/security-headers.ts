import type { Config } from '../flags/definitions'
import { policy } from '../lib/content-security-policy'

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
 * read of it counts towards the page's variant, which only documents key on. A response that
 * already has a policy keeps it: a stored copy sent as it is brings the one naming its scripts'
 * hashes (src/lib/script-hashes.ts).
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
