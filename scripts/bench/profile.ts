// Where a page's CPU goes: a V8 CPU profile of the benchmark worker while it serves one path
// under load, summed by function (self time) and by source file. The profiles behind the
// figures in docs/performance.md:
//
//   npm run bench -- --profile /babysitters/atlanta-ga          every request renders (a miss)
//   npm run bench -- --profile /babysitters/atlanta-ga --hit    served from the cache
//   npm run bench -- --profile /babysitters/ga --large          on the 1M-provider catalog
//   npm run bench -- --profile /babysitters/atlanta-ga --tail   every other city's in turn
//   npm run bench -- --profile /adult-care --floor              a miss with nothing of its own
import autocannon from 'autocannon'
import { findTail } from './find-pages'
import type { Load } from './measure-route'
import { CATALOGS, PHONE, serve, serveCache, serveD1 } from './harness'
import { cycling } from './long-tail'

const INSPECTOR_PORT = 9230

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount: number
  children?: number[]
}

interface Profile {
  nodes: ProfileNode[]
  requests: number
}

/**
 * Prints the top functions and files by self time while `path` is loaded; with `tail`, the
 * long tail of its kind instead (find-pages.ts `findTail`), a page at a time in turn.
 * `cacheHere`: a miss's Cache API answered in the site's own workerd (harness.ts `Caching`).
 */
export async function profileRoute(
  path: string,
  hit: boolean,
  load: Load,
  catalog: keyof typeof CATALOGS = 'default',
  tail = false,
  floor = false,
  cacheHere = false,
): Promise<void> {
  let paths: string | string[] = path
  if (tail) {
    const d1 = await serveD1(CATALOGS[catalog])
    const site = await serve(CATALOGS[catalog], 'cached', d1)
    try {
      paths = await findTail(site.base, path)
    } finally {
      await Promise.all([site.mf.dispose(), d1.mf.dispose()])
    }
  }
  const { nodes, requests } = await takeProfile(paths, hit, load, catalog, floor, cacheHere)
  report(nodes, requests, tail ? `${paths.length} pages from ${path}` : path, hit)
}

/**
 * What a target's gap is made of, in a few lines: the share of the worker's samples in each of
 * the functions that take most of them, with and without what they call.
 */
export async function gapProfile(
  path: string | readonly string[],
  hit: boolean,
  load: Load,
  cacheHere = false,
): Promise<string> {
  const { nodes, requests } = await takeProfile(path, hit, load, 'default', false, cacheHere)
  const total = nodes.reduce((n, node) => n + node.hitCount, 0)
  const self = new Map<string, number>()
  for (const { callFrame, hitCount } of nodes) {
    const fn = nameOf(callFrame)
    self.set(fn, (self.get(fn) ?? 0) + hitCount)
  }
  // The root and the anonymous frames that wrap everything say nothing about where time goes.
  const telling = (m: Map<string, number>, n: number) =>
    [...m]
      .filter(([name]) => !name.startsWith('(root)') && !name.startsWith('(anonymous)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([name, hits]) =>
          `${((100 * hits) / total).toFixed(0)} % ${name.replace(/ bench-worker\.js$/, '')}`,
      )
      .join(', ')
  const what = typeof path === 'string' ? path : `${path.length} pages from ${path[0] ?? ''}`
  return (
    `${requests} requests of ${what} profiled:\n` +
    `  total time: ${telling(inclusive(nodes), 14)}\n` +
    `  self time: ${telling(self, 10)}`
  )
}

/** `path`: one page, or pages asked for in turn, the profiled run going on after its warm-up. */
async function takeProfile(
  path: string | readonly string[],
  hit: boolean,
  load: Load,
  catalog: keyof typeof CATALOGS = 'default',
  floor = false,
  cacheHere = false,
): Promise<Profile> {
  const paths = typeof path === 'string' ? [path] : path
  const d1 = await serveD1(CATALOGS[catalog])
  const cache = hit || cacheHere ? null : await serveCache()
  const site = await serve(CATALOGS[catalog], hit ? 'cached' : { missing: paths, cache }, d1, {
    inspectorPort: INSPECTOR_PORT,
    floor,
  })
  try {
    const options = { url: site.base + (paths[0] ?? ''), headers: { 'user-agent': PHONE } }
    // One sequence for the warm-up and the run: no page of the run was rendered in the warm-up.
    const requests = [cycling(paths)]
    await autocannon({ ...options, requests, connections: load.connections, duration: 1 })
    const inspector = await connect()
    await inspector.send('Profiler.enable')
    await inspector.send('Profiler.setSamplingInterval', { interval: 50 })
    await inspector.send('Profiler.start')
    const run = await autocannon({ ...options, requests, ...load })
    const { profile } = (await inspector.send('Profiler.stop')) as {
      profile: { nodes: ProfileNode[] }
    }
    inspector.close()
    return { nodes: profile.nodes, requests: run.requests.total }
  } finally {
    await Promise.all([site.mf.dispose(), d1.mf.dispose(), cache?.mf.dispose()])
  }
}

function report(nodes: ProfileNode[], requests: number, path: string, hit: boolean): void {
  const total = nodes.reduce((n, node) => n + node.hitCount, 0)
  const byFunction = new Map<string, number>()
  const byFile = new Map<string, number>()
  for (const { callFrame, hitCount } of nodes) {
    const file = fileOf(callFrame.url)
    const fn = nameOf(callFrame)
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hitCount)
    byFile.set(file, (byFile.get(file) ?? 0) + hitCount)
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, hits]) => `${((100 * hits) / total).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n')
  console.log(`\n${path} (${hit ? 'hit' : 'miss'}), ${requests} requests, ${total} samples\n`)
  console.log(`by file (self time):\n${top(byFile, 25)}\n`)
  console.log(`by function (self time):\n${top(byFunction, 40)}\n`)
  console.log(`by function (total time, with what it calls):\n${top(inclusive(nodes), 90)}`)
}

/** Each function's samples with its callees', counted once per sample however deep it recurses. */
function inclusive(nodes: ProfileNode[]): Map<string, number> {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const totals = new Map<string, number>()
  const walk = (node: ProfileNode, onStack: ReadonlySet<string>): void => {
    const name = nameOf(node.callFrame)
    const stack = onStack.has(name) ? onStack : new Set([...onStack, name])
    for (const fn of stack) totals.set(fn, (totals.get(fn) ?? 0) + node.hitCount)
    for (const child of node.children ?? []) {
      const next = byId.get(child)
      if (next) walk(next, stack)
    }
  }
  const root = nodes[0]
  if (root) walk(root, new Set())
  return totals
}

const nameOf = (frame: ProfileNode['callFrame']): string =>
  `${frame.functionName || '(anonymous)'} ${fileOf(frame.url)}`

/**
 * The bundle's functions are named after the module they came from only through its source
 * map; the bundle itself is one file, so the function's own name says most. Runtime and native
 * frames have no URL.
 */
function fileOf(url: string): string {
  if (!url) return '(native)'
  return url.slice(url.lastIndexOf('/') + 1)
}

interface Inspector {
  send(method: string, params?: object): Promise<unknown>
  close(): void
}

/** The workerd inspector's session with the site's worker (Chrome DevTools protocol). */
async function connect(): Promise<Inspector> {
  const res = await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)
  const targets = await res.json<{ webSocketDebuggerUrl: string; title: string }[]>()
  const target = targets.find((t) => !t.title.includes('miniflare')) ?? targets[0]
  if (!target) throw new Error('profile: no worker behind the inspector')
  const ws = new WebSocket(target.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true })
    ws.addEventListener('error', reject, { once: true })
  })
  let next = 1
  const pending = new Map<number, (result: unknown) => void>()
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown }
    if (message.id !== undefined) pending.get(message.id)?.(message.result)
  })
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        const id = next++
        pending.set(id, resolve)
        ws.send(JSON.stringify({ id, method, params }))
      }),
    close: () => ws.close(),
  }
}
