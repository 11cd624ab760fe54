import type { NonceFree } from './nonce'
import { indexOfText, withoutNonce } from './nonce'

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

const LESS_THAN = 0x3c
const GREATER_THAN = 0x3e

/** `cut`: the body already cut at its nonce, when the caller has it (the ETag needed it too). */
export async function hashedScripts(
  body: Uint8Array,
  nonce: string,
  cut: NonceFree = withoutNonce(body, nonce),
): Promise<Hashed> {
  const [first, ...rest] = cut.parts
  // Most documents have no inline script at all: nothing to hash, nothing to copy.
  if (!first || !rest.length) return { body, hashes: [] }
  const scripts = new Set<string>()
  let before = first
  for (const after of rest) {
    const code = inlineCode(before, after)
    // A script with a source is allowed by its origin, not by a hash.
    if (code) scripts.add(code)
    before = after
  }
  const hashes = await Promise.all([...scripts].map(sha256Source))
  return { body: cut.body, hashes }
}

/**
 * The code of the inline script whose opening tag holds the nonce attribute that stood between
 * `before` and `after`, or "" when that tag is no script's. Read from the bytes around it, so a
 * document is never decoded whole. React escapes `<` and `>` in attribute values and never lets
 * `</script` appear inside a script, so the tag starts at the last `<` before the attribute,
 * ends at the first `>` after it, and the first `</script>` after that ends the script.
 */
function inlineCode(before: Uint8Array, after: Uint8Array): string {
  const tag = decoder.decode(before.subarray(before.lastIndexOf(LESS_THAN)))
  if (!/^<script\s/.test(tag)) return ''
  const rest = after.subarray(after.indexOf(GREATER_THAN) + 1)
  const end = indexOfText(rest, '</script>')
  return end === -1 ? '' : decoder.decode(rest.subarray(0, end))
}

async function sha256Source(code: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(code)))
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`
}
