// The gate for ids (docs/scale.md): the gate holds no ids, so a profile or job URL is checked by
// control's directory read. A flood of made-up ids would cost a read each; the ID_MISSES rate
// limit counts each address's 404s of ids, and an isolate told an address is past it answers
// that address's unknown ids with no read until its window ends.

/** The ID_MISSES window (wrangler.toml, `period`): how long an address past the limit stays so. */
export const ID_MISS_WINDOW_MS = 60_000

/**
 * Addresses an isolate keeps as past the limit, at most this many: a flood from more addresses
 * than this costs each new one its reads up to the limit again, never unbounded memory.
 */
export const MAX_LIMITED_ADDRESSES = 10_000

/** The addresses (IPv4, IPv6 /64) an isolate knows to be past the limit of id 404s, and until when. */
export class LimitedAddresses {
  readonly #until = new Map<string, number>()

  /** Whether `key` is past the limit now: its unknown ids are answered with no read. */
  has(key: string, now = Date.now()): boolean {
    const until = this.#until.get(key)
    if (until === undefined) return false
    if (until > now) return true
    this.#until.delete(key)
    return false
  }

  /** `key` went past the limit: so it stays for one window. */
  add(key: string, now = Date.now()): void {
    if (this.#until.size >= MAX_LIMITED_ADDRESSES) this.#forgetEnded(now)
    // Still full of current ones: the oldest goes (a Map iterates in insertion order).
    if (this.#until.size >= MAX_LIMITED_ADDRESSES) {
      const oldest = this.#until.keys().next().value
      if (oldest !== undefined) this.#until.delete(oldest)
    }
    this.#until.delete(key)
    this.#until.set(key, now + ID_MISS_WINDOW_MS)
  }

  get size(): number {
    return this.#until.size
  }

  #forgetEnded(now: number): void {
    for (const [key, until] of this.#until) if (until <= now) this.#until.delete(key)
  }
}
