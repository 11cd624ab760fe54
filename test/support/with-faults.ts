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

/**
 * The real D1, except that the statements `pick` gives faults for answer with those faults. In a
 * `batch` (how a page sends the reads it issues together: src/data/db.ts), a statement's `all`
 * fault answers for it there too, given the real batch's result for that statement as its `all`;
 * the batch answers once every statement has, and fails if any fails.
 */
export function withStatementFaults(
  db: D1Database,
  pick: (sql: string) => Faults<D1PreparedStatement> | undefined,
): D1Database {
  // The real statement behind each faulty one, with its faults.
  const behind = new WeakMap<object, [D1PreparedStatement, Faults<D1PreparedStatement>]>()
  const faulty = (
    statement: D1PreparedStatement,
    faults: Faults<D1PreparedStatement>,
  ): D1PreparedStatement => {
    const standIn: D1PreparedStatement = withFaults(statement, {
      ...faults,
      bind: (bind, ...params) => faulty(bind(...params), faults),
    })
    behind.set(standIn, [statement, faults])
    return standIn
  }
  const prepare = (real: (sql: string) => D1PreparedStatement, sql: string) => {
    const faults = pick(sql)
    return faults ? faulty(real(sql), faults) : real(sql)
  }
  const batch = (
    real: (statements: D1PreparedStatement[]) => Promise<D1Result[]>,
    statements: D1PreparedStatement[],
  ) => {
    let answered: Promise<D1Result[]> | undefined
    const results = () => (answered ??= real(statements.map((s) => behind.get(s)?.[0] ?? s)))
    return Promise.all(
      statements.map((s, i) => {
        const all = () => results().then((r) => r[i])
        const fault = behind.get(s)?.[1].all as ((all: () => unknown) => unknown) | undefined
        return fault ? fault(all) : all()
      }),
    )
  }
  return withFaults(db, {
    prepare,
    batch,
    // A session's reads (D1's Sessions API) get the same faults.
    withSession: (withSession, constraint) =>
      withFaults(withSession(constraint), { prepare, batch }),
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
