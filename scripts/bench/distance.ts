// Latency at a distance: every D1 round trip pays an injected delay, as from a visitor far from
// the database, and each page's miss is requested one at a time. Its time to first byte,
// divided by the delay, is the number of sequential round trips before the status was decided.
import type { PageName } from '../../src/pages'
import { findPages } from './find-pages'
import type { BenchedCatalog } from './bench-catalog'
import { catalogNamed } from './bench-catalog'
import { PHONE, serve, serveCache, serveD1 } from './harness'

const RUNS = 5

export interface DistanceRow {
  route: PageName | 'directory, hit' | 'gate 404'
  path: string
  /** Median time to the response's status and headers, in ms. */
  ttfb: number
  /** ttfb ÷ the injected delay, rounded: the round trips the page waited for. */
  roundTrips: number
}

export async function benchDistance(
  delay: number,
  { name, state, layout }: BenchedCatalog = catalogNamed('default'),
): Promise<DistanceRow[]> {
  console.error(`bench: distance, ${delay} ms per D1 round trip, ${name} catalog`)
  const d1 = await serveD1(state, layout)
  const servers = [d1]
  const options = { d1DelayMs: delay, ...(layout ? { layout } : {}) }
  try {
    const cached = await serve(state, 'cached', d1, options)
    servers.push(cached)
    const pages = await findPages(cached.base)
    const cache = await serveCache()
    servers.push(cache)
    const missing = await serve(state, { missing: Object.values(pages), cache }, d1, options)
    servers.push(missing)
    const row = async (route: DistanceRow['route'], base: string, path: string) => {
      const ttfb = await medianTtfb(base + path)
      return { route, path, ttfb, roundTrips: Math.round(ttfb / delay) }
    }
    const rows: DistanceRow[] = []
    for (const [route, path] of Object.entries(pages) as [PageName, string][])
      rows.push(await row(route, missing.base, path))
    if (pages.directory) rows.push(await row('directory, hit', cached.base, pages.directory))
    rows.push(await row('gate 404', cached.base, '/babysitters/nowhere-zz'))
    return rows
  } finally {
    await Promise.all(servers.map((s) => s.mf.dispose()))
  }
}

/**
 * One request at a time, after two that warm the isolate (its flags, gate, purges and whole
 * tables are then in memory, as on a busy isolate), each measured one as a long-tail page is
 * read: with the derived reads kept for other pages only. The median time to headers.
 */
async function medianTtfb(url: string): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < RUNS + 2; i++) {
    await fetch(new URL('/__bench/forget', url))
    const started = performance.now()
    const res = await fetch(url, { headers: { 'user-agent': PHONE } })
    const ttfb = performance.now() - started
    await res.arrayBuffer()
    if (i >= 2) times.push(ttfb)
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN
}
