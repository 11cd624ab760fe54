// Every route of `npm run bench` on one catalog, each beside its reference, and the catalog's
// query plans and gate.
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { explainPageReads, isScan } from '../../test/support/page-reads'
import type { PageName } from '../../src/pages'
import { findPages, findTail } from './find-pages'
import type { Server } from './harness'
import { layoutNamed, shardBindingName } from '../../src/catalog/placement'
import { localLayout } from '../import/host'
import { CATALOGS, d1Bindings, PHONE, serve, serveCache, serveD1 } from './harness'
import type { Load, Measured } from './measure-route'
import { measureRoute } from './measure-route'

/** A city the gate rejects: its 404 is decided before any read. */
const UNKNOWN_CITY = '/babysitters/nowhere-zz'
const BARE_404 = '/__bench/not-found'

export interface Row {
  route: PageName | 'bare 404' | 'gate 404'
  cache: 'miss' | 'hit' | null
  path: string
  /**
   * A long-tail row's pages, asked for in turn (`path` is the first): each request renders a
   * page the isolate last rendered a lap ago, as a crawler walking the tail gets it.
   */
  tail?: readonly string[]
  measured: Measured
  /**
   * What the row's throughput is compared with, measured just before it on the same server: a
   * static string of the page's size (`bytes`), or for the gate's 404, the bare 404.
   */
  reference: { route: string; bytes: number | null; measured: Measured } | null
  /** The gzipped JavaScript a page ships. */
  js: number | null
}

/**
 * A catalog the bench serves: its name in the tables, its state folder and its layout
 * (wrangler.toml's unless named).
 */
export interface BenchedCatalog {
  name: string
  state: string
  layout?: string
}

/** One of CATALOGS, on wrangler.toml's layout. */
export const catalogNamed = (name: keyof typeof CATALOGS): BenchedCatalog => ({
  name,
  state: CATALOGS[name],
})

export const label = (row: Row): string =>
  row.cache ? `${row.route}, ${row.tail ? 'tail ' : ''}${row.cache}` : row.route

/**
 * `only`: the pages to load, by name (none: every one, and the 404s). `sameTail`: the long tail
 * of a catalog measured before, whose pages this one's tail keeps where its sitemaps list them
 * too, so that the two tail rows render the same pages and differ by the catalog alone.
 * `cacheHere`: the misses' Cache API answered in the site's own workerd, as before the bench
 * answered it elsewhere.
 */
export async function benchCatalog(
  { name, state, layout = localLayout() }: BenchedCatalog,
  load: Load,
  only: readonly string[] = [],
  sameTail: readonly string[] = [],
  cacheHere = false,
) {
  console.error(`bench: ${name} catalog (layout ${layout})`)
  const d1 = await serveD1(state, layout)
  const servers = [d1]
  try {
    const cached = await serve(state, 'cached', d1, { layout })
    servers.push(cached)
    const pages = await findPages(cached.base)
    const tail =
      pages.directory && (!only.length || only.includes('directory'))
        ? await findTail(cached.base, pages.directory, sameTail)
        : []
    // Every request to these pages renders: see `Caching` in scripts/bench/harness.ts.
    const cache = cacheHere ? null : await serveCache()
    if (cache) servers.push(cache)
    const missing = await serve(state, { missing: [...Object.values(pages), ...tail], cache }, d1, {
      layout,
    })
    servers.push(missing)
    const measure = (server: Server, path: string | readonly string[], status: number) =>
      measureRoute(server, d1, path, status, load)

    /**
     * A page under load, just after a static string of its size from the same server. With
     * `tail`, those pages in turn, beside a string of the first one's size.
     */
    const pageRow = async (
      route: PageName,
      path: string,
      cache: 'miss' | 'hit',
      tail?: readonly string[],
    ): Promise<Row> => {
      const server = cache === 'miss' ? missing : cached
      console.error(
        `bench: ${route}, ${cache}: ${tail ? `${tail.length} pages in turn from ` : ''}${path}`,
      )
      // Asked once before the run (it is the tail's first page): the row's reference and JS.
      const res = await fetch(server.base + path, { headers: { 'user-agent': PHONE } })
      const html = await res.text()
      const bytes = new TextEncoder().encode(html).byteLength
      const reference = await measure(server, `/__bench/baseline?bytes=${bytes}`, 200)
      return {
        route,
        cache,
        path,
        ...(tail ? { tail } : {}),
        measured: await measure(server, tail ?? path, 200),
        reference: { route: 'static', bytes, measured: reference },
        js: await shippedJs(html),
      }
    }

    const rows: Row[] = []
    for (const [route, path] of Object.entries(pages) as [PageName, string][]) {
      if (only.length && !only.includes(route)) continue
      rows.push(await pageRow(route, path, 'miss'))
      if (route !== 'directory') continue
      const [first] = tail
      if (first) rows.push(await pageRow(route, first, 'miss', tail))
      rows.push(await pageRow(route, path, 'hit'))
    }
    if (!only.length || only.includes('gate 404')) {
      console.error('bench: 404s')
      const bare = await measure(cached, BARE_404, 404)
      const none = { cache: null, reference: null, js: null }
      rows.push({ ...none, route: 'bare 404', path: BARE_404, measured: bare })
      rows.push({
        ...none,
        route: 'gate 404',
        path: UNKNOWN_CITY,
        measured: await measure(cached, UNKNOWN_CITY, 404),
        reference: { route: 'bare 404', bytes: null, measured: bare },
      })
    }

    // Miniflare types its bindings with its own copy of the Workers types.
    // Each read explained on every database of the layout: it runs where its tables are.
    const databases = await Promise.all(
      d1Bindings(layout).map(
        async (name) => (await d1.mf.getD1Database(name)) as unknown as D1Database,
      ),
    )
    const plans = await explainPageReads(databases)
    const gateRuns: { ms: number; bytes: number }[] = []
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${cached.base}/__bench/gate`)
      gateRuns.push(await res.json<{ ms: number; bytes: number }>())
    }
    return {
      name,
      layout,
      providers: await countProviders(d1, layout),
      rows,
      tail,
      plans: plans.length,
      scans: plans.filter((p) => p.plan.some(isScan)),
      gate: { ms: median(gateRuns.map((g) => g.ms)), bytes: gateRuns[0]?.bytes ?? 0 },
    }
  } finally {
    await Promise.all(servers.map((s) => s.mf.dispose()))
  }
}

/** The providers of every shard of `layout`. */
async function countProviders(d1: Server, layout: string): Promise<number> {
  let providers = 0
  for (let n = 0; n < (layoutNamed(layout)?.shards ?? 0); n++) {
    const shard = (await d1.mf.getD1Database(shardBindingName(n))) as unknown as D1Database
    const row = await shard.prepare('SELECT COUNT(*) AS n FROM providers').first<{ n: number }>()
    providers += row?.n ?? 0
  }
  return providers
}

/** JavaScript a page ships: its module scripts and preloads and what they import, gzip. */
async function shippedJs(html: string): Promise<number> {
  const srcs = [
    ...html.matchAll(/<script type="module" src="\/([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload" href="\/([^"]+)"/g),
  ].map((m) => m[1] ?? '')
  const seen = new Set<string>()
  let bytes = 0
  for (let src = srcs.pop(); src !== undefined; src = srcs.pop()) {
    if (seen.has(src)) continue
    seen.add(src)
    const script = await readFile(join('dist/client', src))
    bytes += gzipSync(script).byteLength
    // The browser script imports React's file by a path relative to its own.
    for (const m of script.toString().matchAll(/(?:from|import\()\s*"\.\/([^"]+)"/g))
      srcs.push(join(dirname(src), m[1] ?? ''))
  }
  return bytes
}

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
