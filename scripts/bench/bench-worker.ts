// The worker as `npm run bench` serves it: the real worker (src/worker.ts), plus routes that exist
// only in the benchmark configuration. Built by `wrangler deploy --dry-run` like the real one.
import type { Handler } from 'hono'
import { createElement } from 'react'
import { TAG } from '../../src/cache/tags'
import { KnownPurges } from '../../src/cache/generations'
import type { AppEnv } from '../../src/env'
import { readGate } from '../../src/gate/gate-store'
import { createApp, memory, withFastPath } from '../../src/app'
import { ROUTES } from '../../src/pages'
import { renderDocument } from '../../src/routes/render-document'
import { pageHead } from '../../src/seo/head'
import { decideIndexing } from '../../src/seo/indexability'
import { Document } from '../../src/views/document'
import worker from '../../src/worker'

interface BenchEnv extends Env {
  /** Paths that miss on every request: see `purgedForever`. */
  BENCH_MISSES?: string[]
  /** Set: D1 is answered by another workerd, so this one's CPU is the worker's own. */
  D1_ELSEWHERE?: Fetcher
  /** Milliseconds every D1 round trip takes on top of its work: D1 far from the visitor. */
  BENCH_D1_DELAY_MS?: number
  /** Milliseconds every read of the flags and the gate from KV takes: KV answering slowly. */
  BENCH_KV_DELAY_MS?: number
  /** Set: the segment row (`/adult-care`, …) serves `floorPage` instead (`floorFetch`). */
  BENCH_FLOOR?: boolean
}

/** Whether BENCH_MISSES have been purged in this isolate's memory. */
let purgedForever = false

/** Baseline bodies, built once per size: the cost of serving a string, nothing else. */
const baselines = new Map<number, string>()

export default {
  async fetch(request, env: BenchEnv, ctx) {
    const url = new URL(request.url)
    switch (url.pathname) {
      case '/__bench/baseline': {
        const bytes = Math.min(Number(url.searchParams.get('bytes')) || 0, 10_000_000)
        const body = baselines.get(bytes) ?? baselines.set(bytes, 'x'.repeat(bytes)).get(bytes)
        return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      }
      case '/__bench/not-found':
        return new Response('Not found', { status: 404 })
      case '/__bench/forget':
        // The derived reads this isolate keeps: the next page reads as a page never seen does.
        memory.derivedReads.clear()
        return new Response(null, { status: 204 })
      case '/__bench/purges':
        // The purge store read by a fresh isolate (all rows) and by a warm one (what changed).
        return Response.json(await measurePurgeReads(env.CONTROL))
      case '/__bench/gate': {
        // The filter's read from KV and its decoding, as a fresh isolate pays it.
        const started = performance.now()
        const gate = await readGate(env.GATE)
        return Response.json({
          ms: performance.now() - started,
          bytes: gate?.bytes().byteLength ?? 0,
        })
      }
    }
    const elsewhere = env.D1_ELSEWHERE
    // Every D1 binding (CONTROL and each shard of the layout) answered by the other workerd.
    const databases = elsewhere
      ? Object.fromEntries(
          d1BindingNames(env).map((name) => [
            name,
            d1Elsewhere(elsewhere, name, env.BENCH_D1_DELAY_MS ?? 0),
          ]),
        )
      : {}
    if (env.BENCH_MISSES && !purgedForever) {
      // Every page of BENCH_MISSES, purged at the end of time: each copy of those pages, in the
      // Cache API or in the isolate's memory, is then older than a purge and is never served,
      // however many requests run at once: every request renders, and the rest of the cache's
      // path (the lookup, the store) runs as on a miss. (Emptying the isolate's memory at each
      // request did not do it: under concurrent requests, a render finishing between one
      // request's emptying and its lookup was served as a hit.)
      memory.purges.record(env.BENCH_MISSES.map(TAG.url), Number.MAX_SAFE_INTEGER)
      purgedForever = true
    }
    const kvDelay = env.BENCH_KV_DELAY_MS ?? 0
    const flags = kvDelay ? slowKv(env.FLAGS, kvDelay) : env.FLAGS
    const gate = kvDelay ? slowKv(env.GATE, kvDelay) : env.GATE
    const served = { ...env, ...databases, FLAGS: flags, GATE: gate }
    if (env.BENCH_FLOOR) return floorFetch()(request, served, ctx)
    return worker.fetch(request, served, ctx)
  },
  scheduled: (controller, env, ctx) => worker.scheduled(controller, env, ctx),
} satisfies ExportedHandler<BenchEnv>

/**
 * A page with nothing of its own: the document's frame (head, header, footer) around an empty
 * main, no D1 read. Its miss is what any miss pays whatever its page (the fast path, the
 * pipeline, the render's stream, storing, digests, cookies, headers, the log line).
 */
const floorPage: Handler<AppEnv> = (c) => {
  const decision = decideIndexing({})
  const head = pageHead(c.env.PUBLIC_ORIGIN, {
    title: 'Floor',
    description: 'A page with nothing of its own.',
    path: c.req.path,
    decision,
    crumbs: null,
  })
  return renderDocument(c, createElement(Document, { head, children: null }), { decision })
}

let floor: ReturnType<typeof withFastPath> | null = null

/** The real worker's pipeline and fast path, with the segment row's page replaced by `floorPage`. */
function floorFetch(): ReturnType<typeof withFastPath> {
  floor ??= withFastPath(
    memory,
    createApp(
      memory,
      ROUTES.map((r) =>
        r.name === 'segment' ? { ...r, row: { ...r.row, handler: floorPage } } : r,
      ),
    ),
  )
  return floor
}

/** `kv`, whose reads (`get`, `getWithMetadata`) each answer `delay` ms late. */
function slowKv(kv: KVNamespace, delay: number): KVNamespace {
  return new Proxy(kv, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property)
      if (typeof value !== 'function') return value
      const method = (value as (this: KVNamespace, ...args: unknown[]) => unknown).bind(target)
      if (property !== 'get' && property !== 'getWithMetadata') return method
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, delay))
        return method(...args)
      }
    },
  })
}

/** The names of the environment's D1 bindings: CONTROL, SHARD_00, … */
function d1BindingNames(env: BenchEnv): string[] {
  return Object.entries(env)
    .filter(([, value]) => typeof value === 'object' && value !== null && 'batch' in value)
    .map(([name]) => name)
}

/**
 * The part of D1 that page reads use (`prepare(sql).bind(...).all()`, and `batch` of such
 * statements), sent over a service binding to the catalog's D1 `binding` in another workerd
 * (`serveD1` in harness.ts): like production, where D1 runs elsewhere and a query costs the
 * worker a round trip, not the query's work. Each round trip waits `delay` ms first, as a
 * distant D1 would; statements sent to different databases at once wait side by side.
 */
function d1Elsewhere(service: Fetcher, binding: string, delay: number): D1Database {
  const roundTrip = async (body: object): Promise<unknown> => {
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay))
    const res = await service.fetch('http://d1/', {
      method: 'POST',
      body: JSON.stringify({ binding, ...body }),
    })
    if (!res.ok) throw new Error(await res.text())
    return res.json()
  }
  interface Statement {
    sql: string
    params: unknown[]
  }
  const prepare = (sql: string) => {
    const statement = {
      sql,
      params: [] as unknown[],
      bind(...values: unknown[]) {
        return { ...statement, params: values }
      },
      all() {
        return roundTrip({ sql: this.sql, params: this.params })
      },
    }
    return statement
  }
  const batch = (statements: Statement[]) =>
    roundTrip({ batch: statements.map(({ sql, params }) => ({ sql, params })) })
  const db = { prepare, batch, withSession: () => db, getBookmark: () => null }
  return db as unknown as D1Database
}

/**
 * The purge store's reads, as isolates make them over what purge-store.ts seeds: a cold
 * isolate's read of the folded snapshot and the rows after it (median and worst of 5), its read
 * of the whole snapshot after it (median of 5), then "what
 * changed since N" with nothing new and with one new purge, each the median of 20 in ms, with the
 * rows D1 read for one.
 */
async function measurePurgeReads(db: D1Database) {
  const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)] ?? 0
  const timed = async (read: () => Promise<unknown>) => {
    const started = performance.now()
    await read()
    return performance.now() - started
  }
  const cold: number[] = []
  const whole: number[] = []
  let known = new KnownPurges()
  for (let i = 0; i < 5; i++) {
    known = new KnownPurges()
    cold.push(await timed(() => known.refresh(db)))
    if (!known.known) throw new Error('bench: the cold read failed')
    // Then, in the background of a real isolate, the whole snapshot over the folded one.
    whole.push(await timed(() => known.refine(db)))
  }
  const nothingNew: number[] = []
  for (let i = 0; i < 20; i++) nothingNew.push(await timed(() => known.refresh(db)))
  const onePurge: number[] = []
  for (let i = 0; i < 20; i++) {
    await db
      .prepare('INSERT INTO purges (at, tag) SELECT ?, value FROM json_each(?)')
      .bind(Date.now(), JSON.stringify([`provider:bench${i}`, `url:/p/bench-${i}`]))
      .run()
    onePurge.push(await timed(() => known.refresh(db)))
  }
  const rowsRead = async (seq: number) =>
    (
      await db
        .prepare('SELECT seq, at, tag FROM purges WHERE seq > ? AND at >= ? ORDER BY seq LIMIT ?')
        .bind(seq, 0, 10_000)
        .all()
    ).meta.rows_read
  const newest = await db.prepare('SELECT MAX(seq) AS seq FROM purges').first<{ seq: number }>()
  return {
    coldMs: median(cold),
    coldMaxMs: Math.max(...cold),
    wholeMs: median(whole),
    nothingNewMs: median(nothingNew),
    onePurgeMs: median(onePurge),
    rowsReadNothingNew: await rowsRead(newest?.seq ?? 0),
    rowsReadOnePurge: await rowsRead((newest?.seq ?? 2) - 2),
  }
}
