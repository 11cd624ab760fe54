// Storage failing on cue, without a hand-made fake: the real binding answers everything a test
// does not name, so a page read that the fault does not aim at still reads the seeded catalog.

type Method = (...args: unknown[]) => unknown

/** A stand-in for one method: given the real one (to delay it, or watch it) and its arguments. */
type Fault<M> = M extends (...args: infer A) => infer R
  ? (real: (...args: A) => R, ...args: A) => unknown
  : never

export type Faults<T> = { [K in keyof T]?: Fault<T[K]> }

/** `binding` itself, except the methods named in `faults`, which answer in its place. */
export function withFaults<T extends object>(binding: T, faults: Faults<T>): T {
  const standIns: Partial<Record<PropertyKey, (real: Method, ...args: unknown[]) => unknown>> =
    faults
  return new Proxy(binding, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop)
      if (typeof value !== 'function') return value
      const real = (...args: unknown[]): unknown => Reflect.apply(value, target, args)
      const fault = standIns[prop]
      return fault ? (...args: unknown[]) => fault(real, ...args) : real
    },
  })
}

/** The real D1, except that the statements `pick` gives faults for answer with those faults. */
export function withStatementFaults(
  db: D1Database,
  pick: (sql: string) => Faults<D1PreparedStatement> | undefined,
): D1Database {
  const faulty = (statement: D1PreparedStatement, faults: Faults<D1PreparedStatement>) =>
    withFaults(statement, {
      ...faults,
      bind: (bind, ...params) => withFaults(bind(...params), faults),
    })
  const prepare = (real: (sql: string) => D1PreparedStatement, sql: string) => {
    const faults = pick(sql)
    return faults ? faulty(real(sql), faults) : real(sql)
  }
  return withFaults(db, {
    prepare,
    // A session's reads (D1's Sessions API) get the same faults.
    withSession: (withSession, constraint) => withFaults(withSession(constraint), { prepare }),
  })
}

/** A KV namespace whose every call fails, as when KV is unreachable. */
export function unreachable(kv: KVNamespace): KVNamespace {
  const fail = () => Promise.reject(new Error('KV unavailable'))
  return withFaults(kv, { get: fail, getWithMetadata: fail, list: fail, put: fail, delete: fail })
}

/**
 * Waits of `ms` that a test can end all at once with `release()`: a test that leaves a slow
 * read running in the background ends it before the test ends, so no storage call outlives it.
 */
export function held(ms: number) {
  const waiting = new Set<() => void>()
  return {
    wait: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          waiting.delete(done)
          resolve()
        }
        const timer = setTimeout(done, ms)
        waiting.add(done)
      }),
    release: () => {
      for (const done of [...waiting]) done()
    },
  }
}
