import { cutAtNonce, joinWithNonce } from './nonce'

/**
 * A rendered document made fit to be sent again as it is (docs/hardening.md): its nonce emptied
 * (`nonce=""`), and in its place the SHA-256 of each inline script the nonce allowed, which the
 * Content-Security-Policy then names. Every response of the copy is then the same bytes, with no
 * work on the body; only a render, whose header leaves before its scripts exist, needs a nonce.
 */
export interface Hashed {
  body: Uint8Array
  /** CSP sources, `'sha256-…'`, one per distinct inline script. */
  hashes: string[]
}

const decoder = new TextDecoder()
const encoder = new TextEncoder()

/**
 * React writes the nonce as an attribute of each inline script and never lets `</script` appear
 * inside one, so the first `</script>` after the opening tag ends it.
 */
const NONCED_SCRIPT = /<script\b[^>]*\snonce="([^"]*)"[^>]*>([\s\S]*?)<\/script>/g

export async function hashedScripts(body: Uint8Array, nonce: string): Promise<Hashed> {
  const scripts = new Set<string>()
  for (const [, found = '', code = ''] of decoder.decode(body).matchAll(NONCED_SCRIPT))
    // A script with a source is allowed by its origin, not by a hash.
    if (found === nonce && code) scripts.add(code)
  const hashes = await Promise.all([...scripts].map(sha256Source))
  return { body: joinWithNonce(cutAtNonce(body, nonce), ''), hashes }
}

async function sha256Source(code: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(code)))
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`
}
