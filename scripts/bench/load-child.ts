// One route's load, run by autocannon in a Node process of its own (measure-route.ts forks it).
// The process that started Miniflare also reads each workerd's log pipe; were it to generate the
// load as well, a worker writing a log line per request would wait on that pipe whenever the
// load kept the process busy, and rows that log would lose throughput that production never
// loses (docs/performance.md).
import autocannon from 'autocannon'
import { cycling } from './long-tail'

/**
 * What the parent sends: autocannon's options and the status every response should have; with
 * `tail`, the paths asked for in turn from the `from`th (`cycling`) instead of the options' URL's.
 */
export interface LoadOrder {
  options: autocannon.Options
  status: number
  tail?: { paths: readonly string[]; from: number }
}

/** What the child sends back when the run is over. */
export interface LoadResult {
  requests: number
  rps: number
  p50: number
  p99: number
  /** Responses by `x-cache` header (`–` without one). */
  cache: Record<string, number>
  /** Errors, timeouts and responses of another status than the order's. */
  errors: number
}

process.once('message', (order: LoadOrder) => {
  const cache: Record<string, number> = {}
  let wrongStatus = 0
  void autocannon({
    ...order.options,
    requests: [
      {
        ...(order.tail ? cycling(order.tail.paths, order.tail.from) : {}),
        onResponse: (got, _body, _context, headers) => {
          if (got !== order.status) wrongStatus++
          const state = (headers as Record<string, string | undefined>)['x-cache'] ?? '–'
          cache[state] = (cache[state] ?? 0) + 1
        },
      },
    ],
  }).then((r) => {
    const result: LoadResult = {
      requests: r.requests.total,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      cache,
      errors: r.errors + r.timeouts + wrongStatus,
    }
    process.send?.(result, () => process.disconnect())
  })
})
