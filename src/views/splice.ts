/**
 * Fragments' bytes placed into a streamed page (docs/request-flow.md, "Streaming"). React is
 * handed a short marker where a fragment goes and the stream puts the fragment's bytes, encoded
 * once per isolate, in its place: React would otherwise encode every fragment's markup into
 * bytes again on every render.
 *
 * A marker is `<`, a NUL byte, the fragment's index and `>`. No rendered text or attribute can
 * hold it: React writes every `<` of them as `&lt;`, and the only markup handed to React as it
 * is (fragments, JSON in scripts) is React's own rendering or JSON with `<` escaped.
 */
export class Splices {
  readonly #fragments: Uint8Array[] = []
  /** The end of the last chunk when it could be the start of a marker cut in two. */
  #held: Uint8Array | null = null

  /** The marker that stands for `bytes` in the markup handed to React. */
  place(bytes: Uint8Array): string {
    this.#fragments.push(bytes)
    return `<\0${this.#fragments.length - 1}>`
  }

  /**
   * `chunk` with every marker replaced by its fragment. A chunk ending in what may be the
   * start of a marker keeps that end for the next chunk; `rest` gives it back at the end.
   */
  apply(chunk: Uint8Array): Uint8Array {
    if (this.#held) chunk = join([this.#held, chunk])
    this.#held = null
    const pieces: Uint8Array[] = []
    let from = 0
    for (let nul = chunk.indexOf(NUL); nul !== -1; nul = chunk.indexOf(NUL, nul + 1)) {
      if (chunk[nul - 1] !== LT) continue
      let end = nul + 1
      let index = 0
      while (end < chunk.length && isDigit(chunk[end]))
        index = index * 10 + (chunk[end++] ?? 0) - ZERO
      const fragment = end > nul + 1 ? this.#fragments[index] : undefined
      if (end === chunk.length) {
        // Cut at the chunk's end: the rest of the marker comes with the next chunk.
        this.#held = chunk.slice(nul - 1)
        chunk = chunk.subarray(0, nul - 1)
        break
      }
      if (chunk[end] !== GT || fragment === undefined) continue
      pieces.push(chunk.subarray(from, nul - 1), fragment)
      from = end + 1
    }
    if (!this.#held && chunk[chunk.length - 1] === LT) {
      this.#held = chunk.slice(-1)
      chunk = chunk.subarray(0, -1)
    }
    if (from === 0) return chunk
    pieces.push(chunk.subarray(from))
    return join(pieces)
  }

  /** What `apply` held back, when the stream ends: not a marker after all. */
  rest(): Uint8Array | null {
    const held = this.#held
    this.#held = null
    return held
  }
}

const NUL = 0
const LT = '<'.charCodeAt(0)
const GT = '>'.charCodeAt(0)
const ZERO = '0'.charCodeAt(0)

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= ZERO && byte <= ZERO + 9
}

/** `parts` one after another in one array (the one part itself when there is one). */
export function join(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.byteLength
  }
  return out
}
