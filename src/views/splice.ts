/**
 * The one splicing scheme: markup React cannot be handed placed into a streamed page
 * (docs/request-flow.md, "One splicing scheme"). A page's main rendered apart is text with no
 * element of its own (streamed sections follow it in <main>), so React is handed a short marker
 * where it goes and the stream puts its bytes in its place.
 *
 * A marker is a NUL byte, the page's key, the markup's index and a NUL byte. React writes text
 * and attributes as they are but for `&<>"'`, so what makes a marker unforgeable is the key:
 * random letters made for each page, which no stored text can know before the page is rendered.
 */
export class Splices {
  readonly #fragments: Uint8Array[] = []
  readonly #key = randomLetters(KEY_LENGTH)
  /** The end of the last chunk when it could be the start of a marker cut in two. */
  #held: Uint8Array | null = null

  /** The marker that stands for `bytes` in the markup handed to React. */
  place(bytes: Uint8Array): string {
    this.#fragments.push(bytes)
    return `\0${this.#key}${this.#fragments.length - 1}\0`
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
      const found = this.#marker(chunk, nul)
      if (found === CUT) {
        // Cut at the chunk's end: the rest of the marker comes with the next chunk.
        this.#held = chunk.slice(nul)
        chunk = chunk.subarray(0, nul)
        break
      }
      if (found === null) continue
      pieces.push(chunk.subarray(from, nul), found.fragment)
      from = found.end
      nul = found.end - 1
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

  /** The fragment of the marker at `at` (a NUL) and where it ends; `CUT` if the chunk ends first. */
  #marker(
    chunk: Uint8Array,
    at: number,
  ): { fragment: Uint8Array; end: number } | typeof CUT | null {
    let i = at + 1
    for (let k = 0; k < KEY_LENGTH; k++, i++) {
      if (i === chunk.length) return CUT
      if (chunk[i] !== this.#key.charCodeAt(k)) return null
    }
    const digits = i
    let index = 0
    while (i < chunk.length && isDigit(chunk[i])) index = index * 10 + (chunk[i++] ?? 0) - ZERO
    if (i === chunk.length) return CUT
    const fragment = this.#fragments[index]
    if (i === digits || chunk[i] !== NUL || fragment === undefined) return null
    return { fragment, end: i + 1 }
  }
}

/** Letters enough that no text guesses them (26^16 keys). */
const KEY_LENGTH = 16
const CUT = 'cut'

function randomLetters(length: number): string {
  return String.fromCharCode(
    ...crypto.getRandomValues(new Uint8Array(length)).map((b) => A + (b % 26)),
  )
}

const NUL = 0
const A = 'a'.charCodeAt(0)
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
