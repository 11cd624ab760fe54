// The real worker (src/worker.ts) with D1 answered as a far visitor's data centre sees it, for
// `npm run bench -- --stream` under `wrangler dev`: the primary BENCH_PRIMARY_MS away, a read
// replica BENCH_REPLICA_MS away that lags the primary by BENCH_REPLICA_LAG_MS. Each round trip
// waits the distance of where D1 would send it, by its session's constraint (D1's Sessions API):
//
// - a write, or a read outside any session, or a session opened `first-primary`: the primary;
// - `first-unconstrained`: the replica;
// - a bookmark: the replica once it has caught up to the bookmark (BENCH_REPLICA_LAG_MS after
//   this isolate first saw it), else the primary.
//
// What the model leaves out: the local D1 is one SQLite, so a lagging replica's answer is timed
// as one but holds the current rows (the tests' own lagging replica, test/cache/purge-replica.test.ts,
// checks correctness); and a bookmark's age is counted from when this isolate first saw it (a read
// or a write's), at or after its commit, so the model sends a little more to the primary than D1.
import worker from '../../src/worker'

interface ModelEnv extends Env {
  BENCH_PRIMARY_MS?: string
  BENCH_REPLICA_MS?: string
  BENCH_REPLICA_LAG_MS?: string
}

/** When this isolate first saw each bookmark (pruned past the lag: every one is caught up then). */
const firstSeen = new Map<string, number>()

export default {
  fetch(request: Request, env: ModelEnv, ctx: ExecutionContext) {
    return worker.fetch(request, modelled(env), ctx)
  },
  queue(batch: MessageBatch, env: ModelEnv, ctx: ExecutionContext) {
    return worker.queue(batch, modelled(env), ctx)
  },
  scheduled(controller: ScheduledController, env: ModelEnv, ctx: ExecutionContext) {
    return worker.scheduled(controller, modelled(env), ctx)
  },
} satisfies ExportedHandler<ModelEnv>

function modelled(env: ModelEnv): Env {
  const primary = Number(env.BENCH_PRIMARY_MS ?? 80)
  const replica = Number(env.BENCH_REPLICA_MS ?? 5)
  const lag = Number(env.BENCH_REPLICA_LAG_MS ?? 2_000)
  const whereTo = (constraint: string): number => {
    if (constraint === 'first-primary') return primary
    if (constraint === 'first-unconstrained') return replica
    const seen = firstSeen.get(constraint)
    return seen === undefined || Date.now() - seen >= lag ? replica : primary
  }
  // Control and every shard: each database's round trips wait as D1 would send them.
  const databases = Object.entries(env).filter(([name]) => /^(CONTROL|SHARD_\d+)$/.test(name))
  return {
    ...env,
    ...Object.fromEntries(
      databases.map(([name, db]) => [name, distant(db as D1Database, () => primary, whereTo, lag)]),
    ),
  }
}

/** `db` with each round trip waiting `delay()` first; its sessions wait by their constraint. */
function distant(
  db: D1Database,
  delay: () => number,
  whereTo: (constraint: string) => number,
  lag: number,
): D1Database {
  const real = new WeakMap<object, D1PreparedStatement>()
  const wrap = (statement: D1PreparedStatement, wait: () => Promise<void>): D1PreparedStatement => {
    const wrapped = new Proxy(statement, {
      get(target, name) {
        if (name === 'bind') return (...values: unknown[]) => wrap(target.bind(...values), wait)
        if (name === 'first' || name === 'all' || name === 'run' || name === 'raw')
          return async (...args: unknown[]) => {
            await wait()
            return (target[name] as (...a: unknown[]) => unknown).apply(target, args)
          }
        return Reflect.get(target, name, target) as unknown
      },
    })
    real.set(wrapped, statement)
    return wrapped
  }
  const unwrap = (statements: D1PreparedStatement[]) => statements.map((s) => real.get(s) ?? s)
  const waitFor = (ms: number) => () =>
    ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
  const seen = (bookmark: string | null) => {
    if (bookmark && !firstSeen.has(bookmark)) firstSeen.set(bookmark, Date.now())
    if (firstSeen.size > 10_000)
      for (const [b, at] of firstSeen) if (Date.now() - at >= lag) firstSeen.delete(b)
    return bookmark
  }
  return new Proxy(db, {
    get(target, name) {
      if (name === 'prepare') return (sql: string) => wrap(target.prepare(sql), waitFor(delay()))
      if (name === 'batch')
        return async (statements: D1PreparedStatement[]) => {
          await waitFor(delay())()
          return target.batch(unwrap(statements))
        }
      if (name === 'withSession')
        return (constraint = 'first-unconstrained') => {
          const session = target.withSession(constraint)
          // Where the session's reads go is decided once, when it opens, as D1 does.
          const wait = waitFor(whereTo(constraint))
          return {
            prepare: (sql: string) => wrap(session.prepare(sql), wait),
            batch: async (statements: D1PreparedStatement[]) => {
              await wait()
              return session.batch(unwrap(statements))
            },
            getBookmark: () => seen(session.getBookmark()),
          } as unknown as D1DatabaseSession
        }
      return Reflect.get(target, name, target) as unknown
    },
  })
}
