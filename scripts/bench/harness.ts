// What `npm run bench` and `npm run load` share: the build steps and the benchmark worker
// served in workerd through Miniflare's API.
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { promisify } from 'node:util'
import type { V4MiniflareOptions } from 'miniflare'
import { CACHE_PLUGIN, convertV4MiniflareOptions, Miniflare } from 'miniflare'
import { parse } from 'smol-toml'
import { layoutDatabases, localLayout } from '../import/host'
import { childWorkerds } from './cpu-time'

const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
export const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'
export const SITE = 'dist/bench/site'
const HARNESS = 'dist/bench/harness'
export const CATALOGS = { default: '.wrangler/state/v3', large: '.wrangler/bench-large/v3' }

/**
 * A catalog the bench seeds placed by `layout` (`--layout`), in a folder of its own: the default
 * catalog's size or the 1M providers of `--large`.
 */
export function layoutCatalog(size: keyof typeof CATALOGS, layout: string): string {
  return `.wrangler/bench-${size}-${layout}/v3`
}

/** The D1 bindings of `layout` (wrangler.toml's when none is named): CONTROL, SHARD_nn. */
export function d1Bindings(layout?: string): string[] {
  return Object.keys(layoutDatabases(layout ?? localLayout()))
}

const run = promisify(execFile)

/** The purge token of a `production` server. */
export const BENCH_PURGE_TOKEN = 'load-purges'
/** wrangler.toml's guest message rate limit: ten posts a minute per network. */
const MESSAGE_SENDERS = { limit: 10, period: 60 as const }
/**
 * Runs one preparation step. `progress`: its stderr (the seed's progress line, with an ETA) is
 * shown as it comes, so a long seed is never silent.
 */
export async function step(
  what: string,
  file: string,
  args: string[],
  { progress = false }: { progress?: boolean } = {},
): Promise<void> {
  console.error(`bench: ${what}`)
  const running = run(file, args, { env: ENV, maxBuffer: 64 * 1024 * 1024 })
  if (progress) running.child.stderr?.pipe(process.stderr)
  await running
}

/**
 * Assets, the default catalog (seeded once; `seed: false` when the run serves only catalogs of its
 * own) and the benchmark worker's production bundle.
 */
export async function buildHarness({ seed = true }: { seed?: boolean } = {}): Promise<void> {
  await step('client assets', 'npx', ['tsx', 'scripts/build-assets.ts'])
  if (seed)
    await step('default catalog (seeded once)', 'npx', ['tsx', 'scripts/seed.ts'], {
      progress: true,
    })
  await step('benchmark bundle', 'node_modules/.bin/wrangler', [
    'deploy',
    '--dry-run',
    '--outdir',
    HARNESS,
    'scripts/bench/bench-worker.ts',
  ])
}

/** The site's compatibility date and flags (nodejs_compat: React's Node server build). */
const { compatibility_date: compatibilityDate, compatibility_flags: compatibilityFlags = [] } =
  parse(await readFile('wrangler.toml', 'utf8')) as {
    compatibility_date: string
    compatibility_flags?: string[]
  }

/** A workerd that Miniflare runs for us: its address and its processes, for their CPU time. */
export interface Server {
  mf: Miniflare
  base: string
  pids: number[]
}

/**
 * How the site caches. `cached`: as in production, the Cache API behind the isolate's memory of
 * stored pages. `{ missing, cache }`: every request to those paths renders: every copy of them
 * is older than a purge in the far future (bench-worker.ts), so none is ever served, and the
 * Cache API is off. Its side of each `put` (and `match`) is answered by `cache` (serveCache),
 * another workerd, as production's cache is another process: the worker still serialises the
 * copy and sends it, and pays nothing for the answer. `cache: null` (`--cache-here`): Miniflare
 * answers them in the site's own workerd, with a JavaScript worker that reads the copy into a
 * WritableStream, about a sixth of the floor miss's instructions (docs/performance.md).
 */
export type Caching = 'cached' | { missing: readonly string[]; cache: Pick<Server, 'base'> | null }

/**
 * The benchmark worker over one catalog. With `d1` (serveD1), D1 is answered by that other
 * workerd, as in production, where D1 runs elsewhere: this one's CPU is then the worker's.
 */
export async function serve(
  state: string,
  caching: Caching,
  d1?: Server,
  options: SiteOptions = {},
): Promise<Server> {
  return started(siteOptions(state, caching, d1, options))
}

export interface SiteOptions {
  inspectorPort?: number
  /** Milliseconds added to every D1 round trip. */
  d1DelayMs?: number
  /** Milliseconds added to every read of the flags and the gate. */
  kvDelayMs?: number
  /** The purge token and the guest messages' rate limit, as wrangler.toml gives them. */
  production?: boolean
  /** The segment row serves a page with nothing of its own (bench-worker.ts `floorPage`). */
  floor?: boolean
  /** The catalog's layout (src/catalog/placement.ts): wrangler.toml's unless named. */
  layout?: string
}

/** Miniflare's options of `serve`. */
export function siteOptions(
  state: string,
  caching: Caching,
  d1?: Pick<Server, 'base'>,
  {
    inspectorPort,
    d1DelayMs = 0,
    kvDelayMs = 0,
    production = false,
    floor = false,
    layout = localLayout(),
  }: SiteOptions = {},
): V4MiniflareOptions {
  const options: V4MiniflareOptions = {
    ...(inspectorPort ? { inspectorPort } : {}),
    scriptPath: join(HARNESS, 'bench-worker.js'),
    modules: true,
    compatibilityDate,
    compatibilityFlags,
    bindings: {
      PUBLIC_ORIGIN: 'https://www.care.example',
      ENVIRONMENT: 'bench',
      SENTRY_BROWSER_DSN: '',
      SHARD_LAYOUT: layout,
      ...(caching === 'cached' ? {} : { BENCH_MISSES: [...caching.missing] }),
      BENCH_D1_DELAY_MS: d1DelayMs,
      BENCH_KV_DELAY_MS: kvDelayMs,
      ...(production ? { PURGE_TOKEN: BENCH_PURGE_TOKEN } : {}),
      ...(floor ? { BENCH_FLOOR: true } : {}),
    },
    ...(production
      ? { ratelimits: { MESSAGE_SENDERS: { namespace_id: '1002', simple: MESSAGE_SENDERS } } }
      : {}),
    d1Databases: Object.fromEntries(d1Bindings(layout).map((name) => [name, name])),
    kvNamespaces: { FLAGS: 'FLAGS', GATE: 'GATE' },
    // Miniflare 5 keeps every binding's state under one root, as wrangler's `.wrangler/state/v3`.
    resourcePersistencePath: state,
    cacheAPI: caching === 'cached',
    ...(d1
      ? {
          serviceBindings: {
            D1_ELSEWHERE: { external: { address: new URL(d1.base).host, http: {} } },
          },
        }
      : {}),
    // The worker's log line per request is still written (its cost counts), but not shown.
    handleRuntimeStdio: quiet,
    handleStructuredLogs: () => undefined,
  }
  return caching !== 'cached' && caching.cache ? cacheAt(caching.cache, options) : options
}

/**
 * A catalog's D1 databases (every binding of its `layout`) in a workerd of their own, answering
 * the part of D1 that page reads use (`prepare(sql).bind(...).all()`, `batch`) over HTTP, each
 * request naming its binding: bench-worker.ts's `d1Elsewhere` is its client.
 */
export async function serveD1(state: string, layout?: string): Promise<Server> {
  return started({
    script: `export default {
      async fetch(request, env) {
        const { binding, sql, params, batch } = await request.json()
        const db = env[binding]
        if (!db) return new Response('no D1 binding ' + binding, { status: 500 })
        const statement = (s) => db.prepare(s.sql).bind(...s.params)
        if (batch) return Response.json(await db.batch(batch.map(statement)))
        return Response.json(await statement({ sql, params }).all())
      },
    }`,
    modules: true,
    compatibilityDate,
    d1Databases: Object.fromEntries(d1Bindings(layout).map((name) => [name, name])),
    resourcePersistencePath: state,
    handleRuntimeStdio: quiet,
  })
}

/**
 * A workerd answering the Cache API of a site whose copies are never served, as Miniflare's
 * own answers it with the Cache API off (a `match` is a miss, a `put` is read and dropped), but
 * in a process of its own: production's cache is not the worker's CPU.
 */
export async function serveCache(): Promise<Server> {
  return started({
    script: `export default {
      async fetch(request) {
        if (request.method === 'GET')
          return new Response(null, { status: 504, headers: { 'cf-cache-status': 'MISS' } })
        if (request.method !== 'PUT') return new Response(null, { status: 404 })
        await request.arrayBuffer()
        return new Response(null, { status: 204 })
      },
    }`,
    modules: true,
    compatibilityDate,
    handleRuntimeStdio: quiet,
  })
}

/**
 * Where the Cache API of each site `cacheAt` named is answered: by the site worker's name, the
 * address of the workerd answering it.
 */
const cacheAddresses = new Map<string, string>()
let cachedSites = 0

/**
 * `options` with the worker's Cache API answered by `cache`'s workerd. Miniflare has no option
 * for it: a worker's `cacheApiOutbound` is the service its cache plugin names `cache:<worker's
 * index>`, so for a worker named here, that service is replaced by the other workerd's
 * address; the worker's own side of the Cache API (workerd's `Cache::put`, which serialises the
 * response and sends it) is unchanged.
 */
export function cacheAt(
  cache: Pick<Server, 'base'>,
  options: V4MiniflareOptions,
): V4MiniflareOptions {
  const name = `site-${++cachedSites}`
  cacheAddresses.set(name, new URL(cache.base).host)
  return { ...options, name }
}

const cacheServices = CACHE_PLUGIN.getServices.bind(CACHE_PLUGIN)
CACHE_PLUGIN.getServices = async (plugin) => {
  const services = await cacheServices(plugin)
  const address = cacheAddresses.get(plugin.options.config.name)
  if (address === undefined || !Array.isArray(services)) return services
  const own = `cache:${plugin.workerIndex}`
  return services.map((s) => (s.name === own ? { name: own, external: { address, http: {} } } : s))
}

/**
 * Starts Miniflare's workerd and finds its processes: the ones that were not there before. The
 * address served is a socket of the worker's own, as production's HTTP front end calls the worker:
 * Miniflare's usual address passes each request through its entry worker first (routing, a copy
 * of the request with a made-up `cf` object, Miniflare's own headers), a JavaScript worker that
 * production does not run and that cost more CPU than a bare 404 itself (docs/performance.md).
 */
async function started(options: V4MiniflareOptions): Promise<Server> {
  const before = await childWorkerds()
  // Miniflare 5 takes its options in a new shape; its converter reads the long-standing one.
  const mf = new Miniflare(
    convertV4MiniflareOptions({ ...options, unsafeDirectSockets: [{ host: '127.0.0.1' }] }),
  )
  await mf.ready
  const url = await mf.unsafeGetDirectURL()
  const pids = (await childWorkerds()).filter((p) => !before.includes(p))
  if (!pids.length) throw new Error('bench: no workerd process found for the server')
  return { mf, base: url.origin, pids }
}

function quiet(stdout: Readable, stderr: Readable): void {
  stdout.resume()
  stderr.resume()
}
