/** How a kept value is read from storage, and what stands in when that fails. */
export interface Load<T> {
  read: () => Promise<T>
  /**
   * The value to keep when `read` fails, for the retry delay; `previous` is what was kept before.
   * Without it the failure reaches the callers and nothing new is kept, so the next caller reads.
   */
  recover?: (error: unknown, previous: T | undefined) => T
}

export type WaitUntil = (promise: Promise<unknown>) => void

/**
 * A value an isolate keeps in memory between requests: loaded once, trusted for `maxAgeMs`, then
 * loaded again. One load at a time: callers that arrive while it runs share it. After a failed
 * load, what `recover` gives is kept for `retryAfterMs` (by default the max age too).
 *
 * Three ways to ask: `get` waits whenever the value is stale; `serve` waits only for the first
 * load and otherwise answers with what it has while a newer copy loads in the background; `value`,
 * `stale` and `load` let a caller that never waits decide for itself.
 */
export class Kept<T extends NonNullable<unknown> | null> {
  readonly #maxAgeMs: number
  readonly #retryAfterMs: number
  #kept: { value: T; until: number } | undefined
  #loading: Promise<T> | undefined

  constructor({ maxAgeMs, retryAfterMs = maxAgeMs }: { maxAgeMs: number; retryAfterMs?: number }) {
    this.#maxAgeMs = maxAgeMs
    this.#retryAfterMs = retryAfterMs
  }

  /** What is kept, fresh or not; undefined until a first load has ended. */
  get value(): T | undefined {
    return this.#kept?.value
  }

  /** Whether nothing is kept yet, or what is kept is past its age. */
  get stale(): boolean {
    return !this.#kept || Date.now() >= this.#kept.until
  }

  /** Whether a load is running. */
  get loading(): boolean {
    return this.#loading !== undefined
  }

  /** The value while it is fresh; otherwise waits for a load. */
  get(load: Load<T>): Promise<T> {
    if (this.#kept && !this.stale) return Promise.resolve(this.#kept.value)
    return this.load(load)
  }

  /**
   * What is kept, fresh or not: only the first load is waited for. Once stale, a load runs in the
   * background (`waitUntil`) and this request is answered with the older copy.
   */
  async serve(load: Load<T>, waitUntil: WaitUntil): Promise<T> {
    if (!this.#kept) return this.load(load)
    if (this.stale && !this.loading) waitUntil(this.load(load))
    return this.#kept.value
  }

  /** Loads now, unless a load is running: then that one's result. `read` is called at once. */
  load({ read, recover }: Load<T>): Promise<T> {
    this.#loading ??= read()
      .then(
        (value) => this.#keep(value, this.#maxAgeMs),
        (error: unknown) => {
          if (!recover) throw error
          return this.#keep(recover(error, this.value), this.#retryAfterMs)
        },
      )
      .finally(() => {
        this.#loading = undefined
      })
    return this.#loading
  }

  #keep(value: T, forMs: number): T {
    this.#kept = { value, until: Date.now() + forMs }
    return value
  }
}
