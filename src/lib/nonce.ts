/**
 * Content-Security-Policy nonces (docs/hardening.md): every render has one of its own. A page
 * served again is sent as it was kept, its scripts allowed by their hashes
 * (src/lib/script-hashes.ts), unless the tag manager needs a nonce on it: then it is kept
 * cut where its old nonce was and joined with a new one, which costs a copy of the bytes instead
 * of a parse of the document.
 */

/** 16 random bytes, base64: a nonce. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
}

const encoder = new TextEncoder()

/** How a nonce appears in a document React rendered: always as this attribute. */
function attribute(nonce: string): string {
  return `nonce="${nonce}"`
}

/** The body cut around each occurrence of `nonce`'s attribute (none: one part). */
export function cutAtNonce(body: Uint8Array, nonce: string): Uint8Array[] {
  const needle = encoder.encode(attribute(nonce))
  const parts: Uint8Array[] = []
  let start = 0
  for (const at of occurrences(body, needle)) {
    parts.push(body.subarray(start, at))
    start = at + needle.byteLength
  }
  parts.push(body.subarray(start))
  return parts
}

/** A document cut where its nonce stood, and its bytes without it: what a hit sends. */
export interface NonceFree {
  parts: Uint8Array[]
  body: Uint8Array
}

/**
 * `body` cut at `nonce` once, for every use of a stored copy (its ETag, its scripts' hashes):
 * without a nonce in it, the body itself, not a copy.
 */
export function withoutNonce(body: Uint8Array, nonce: string): NonceFree {
  const parts = cutAtNonce(body, nonce)
  return { parts, body: parts.length === 1 ? body : joinWithNonce(parts, '') }
}

/** Whether `body` holds `text` (ASCII). */
export function includesText(body: Uint8Array, text: string): boolean {
  return indexOfText(body, text) !== -1
}

/** Where `text` (ASCII) first starts in `body`, or -1. */
export function indexOfText(body: Uint8Array, text: string): number {
  return occurrences(body, encoder.encode(text), 1)[0] ?? -1
}

/**
 * Where `needle` starts in `body`, without overlaps, at most `limit` times. The scan jumps
 * between occurrences of the needle's rarest-looking byte (an uppercase letter, digit or
 * sign, which markup seldom holds), found by the engine's native indexOf: a document is
 * mostly lowercase, so few places are compared in full.
 */
function occurrences(body: Uint8Array, needle: Uint8Array, limit = Infinity): number[] {
  const k = Math.max(0, needle.findIndex(isRare))
  const anchor = needle[k] ?? 0
  const found: number[] = []
  let from = 0
  for (let at = body.indexOf(anchor, k); at !== -1 && found.length < limit;) {
    const start = at - k
    if (start >= from && startsWith(body, needle, start)) {
      found.push(start)
      from = start + needle.byteLength
      at = body.indexOf(anchor, from + k)
    } else at = body.indexOf(anchor, at + 1)
  }
  return found
}

/** A–Z, 0–9, `+`, `/` and `:`: bytes of a nonce or a marker that lowercase markup seldom has. */
function isRare(byte: number): boolean {
  return (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 58) || byte === 43 || byte === 47
}

/** The parts joined with `nonce`'s attribute: the document as this response sends it. */
export function joinWithNonce(parts: readonly Uint8Array[], nonce: string): Uint8Array {
  const glue = encoder.encode(attribute(nonce))
  let size = glue.byteLength * (parts.length - 1)
  for (const part of parts) size += part.byteLength
  const body = new Uint8Array(size)
  let at = 0
  for (const [i, part] of parts.entries()) {
    if (i > 0) {
      body.set(glue, at)
      at += glue.byteLength
    }
    body.set(part, at)
    at += part.byteLength
  }
  return body
}

function startsWith(body: Uint8Array, needle: Uint8Array, at: number): boolean {
  if (at + needle.byteLength > body.byteLength) return false
  for (let i = 0; i < needle.byteLength; i++) if (body[at + i] !== needle[i]) return false
  return true
}
