/** How a kept value is read from storage, and what stands in when that fails. */
export interface Load<T> {
  read: () => Promise<T>
  /**
   * The value to keep when `read` fails, for the retry delay; `previous` is what was kept before.
   * Without it the failure reaches the callers and nothing new is kept, so the next caller reads.
   */
  recover?: (error: unknown, previous: T | undefined) => T
  /**
   * A read not ended after this long counts as failed. For a read that callers stop waiting for
   * at a deadline: one that never ends would otherwise leave every later caller its stand-in.
   */
  giveUpMs?: number
}

export type WaitUntil = (promise: Promise<unknown>) => void

/** How long a caller waits for a load, and where the load runs on once it has waited enough. */
export interface Deadline {
  ms: number
  /** The request's `waitUntil`: a load that outlives its deadline still ends, and is kept. */
  waitUntil: WaitUntil
  /** Called once per load that passes its deadline (to report a slow store once, not per request). */
  onLate?: () => void
}

/** What a caller with a deadline gets when the load has not ended in time. */
export const LATE = Symbol('late')

/**
 * A value an isolate keeps in memory between requests: loaded once, trusted for `maxAgeMs`, then
 * loaded again. One load at a time: callers that arrive while it runs share it. After a failed
 * load, what `recover` gives is kept for `retryAfterMs` (by default the max age too).
 *
 * Three ways to ask: `get` waits whenever the value is stale; `serve` waits only for the first
 * load and otherwise answers with what it has while a newer copy loads in the background; `value`,
 * `stale` and `load` let a caller that never waits decide for itself. `getWithin` and
 * `serveWithin` wait as `get` and `serve` do, but never longer than a deadline.
 */
export class Kept<T extends NonNullable<unknown> | null> {
  readonly #maxAgeMs: number
  readonly #retryAfterMs: number
  #kept: { value: T; until: number } | undefined
  #loading: Promise<T> | undefined
  /** The running load, once it has passed a caller's deadline: later callers do not wait for it. */
  #overdue: Promise<T> | undefined

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

  /** Counts what is kept as stale from now on (it is still served until a load replaces it). */
  expire(): void {
    if (this.#kept) this.#kept = { ...this.#kept, until: 0 }
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

  /** As `get`, but a load is waited for at most `deadline.ms`: past it, LATE (see `#within`). */
  getWithin(load: Load<T>, deadline: Deadline): Promise<T | typeof LATE> {
    if (this.#kept && !this.stale) return Promise.resolve(this.#kept.value)
    return this.#within(this.load(load), deadline)
  }

  /** As `serve`, but the first load is waited for at most `deadline.ms`: past it, LATE. */
  serveWithin(load: Load<T>, deadline: Deadline): Promise<T | typeof LATE> {
    if (!this.#kept) return this.#within(this.load(load), deadline)
    return this.serve(load, deadline.waitUntil)
  }

  /**
   * `loading`'s outcome if it ends within the deadline, else LATE while it runs on in the
   * background and is kept when it ends. Once a load has passed a deadline, a slow store costs
   * later callers nothing: they get LATE at once.
   */
  #within(loading: Promise<T>, { ms, waitUntil, onLate }: Deadline): Promise<T | typeof LATE> {
    if (this.#overdue === loading) return Promise.resolve(LATE)
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<typeof LATE>((resolve) => {
      timer = setTimeout(() => {
        // Its failure, if it fails, is for `recover` or the next caller: not this request's.
        waitUntil(loading.catch(() => undefined))
        if (this.#overdue !== loading && this.#loading === loading) {
          this.#overdue = loading
          onLate?.()
        }
        resolve(LATE)
      }, ms)
    })
    return Promise.race([loading, late]).finally(() => clearTimeout(timer))
  }

  /** Loads now, unless a load is running: then that one's result. `read` is called at once. */
  load({ read, recover, giveUpMs }: Load<T>): Promise<T> {
    this.#loading ??= (giveUpMs === undefined ? read() : givenUpAfter(read(), giveUpMs))
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

/** `promise`, or a rejection once `ms` have passed without it settling. */
async function givenUpAfter<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const givenUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer after ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, givenUp])
  } finally {
    clearTimeout(timer)
  }
}
