/**
 * Content-Security-Policy nonces (docs/hardening.md): every HTML response has one of its own. A
 * fresh render writes the request's nonce; a page served again (a stored copy, an error page
 * rendered once) is kept cut where its old nonce was and joined with the new one, which costs a
 * copy of the bytes instead of a parse of the document.
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
  const first = needle[0] ?? 0
  const parts: Uint8Array[] = []
  let start = 0
  for (let at = body.indexOf(first); at !== -1; at = body.indexOf(first, at + 1)) {
    if (!startsWith(body, needle, at)) continue
    parts.push(body.subarray(start, at))
    start = at + needle.byteLength
    at = start - 1
  }
  parts.push(body.subarray(start))
  return parts
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
  for (let i = 1; i < needle.byteLength; i++) if (body[at + i] !== needle[i]) return false
  return true
}
