// The long tail a crawler walks: many pages of one kind, each requested once in a while, where
// a miss row of `npm run bench` renders one page again and again (docs/performance.md).
import type autocannon from 'autocannon'

/**
 * autocannon's requests, every connection taking the next of `paths` in turn from `from` on:
 * shared by all connections, so no two of them ask for the same page at once, and a page comes
 * back only once every other one has been asked for.
 */
export function cycling(
  paths: readonly string[],
  from = 0,
): { setupRequest: (request: autocannon.Request) => autocannon.Request } {
  let next = from
  return {
    setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] ?? '/' }),
  }
}
