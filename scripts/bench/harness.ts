// What `npm run bench` and `npm run load` share: the build steps and the benchmark worker
// served in workerd through Miniflare's API.
import { execFile } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { promisify } from 'node:util'
import { Miniflare } from 'miniflare'

const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
export const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'
export const SITE = 'dist/bench/site'
const HARNESS = 'dist/bench/harness'
export const CATALOGS = { default: '.wrangler/state/v3', large: '.wrangler/bench-large/v3' }

const run = promisify(execFile)
export async function step(what: string, file: string, args: string[]): Promise<void> {
  console.error(`bench: ${what}`)
  await run(file, args, { env: ENV, maxBuffer: 64 * 1024 * 1024 })
}

/** Assets, the default catalog (seeded once) and the benchmark worker's production bundle. */
export async function buildHarness(): Promise<void> {
  await step('client assets', 'npx', ['tsx', 'scripts/build-assets.ts'])
  await step('default catalog (seeded once)', 'npx', ['tsx', 'scripts/seed.ts'])
  await step('benchmark bundle', 'node_modules/.bin/wrangler', [
    'deploy',
    '--dry-run',
    '--outdir',
    HARNESS,
    'scripts/bench/bench-worker.ts',
  ])
}

const compatibilityDate =
  /compatibility_date = "([^"]+)"/.exec(await readFile('wrangler.toml', 'utf8'))?.[1] ??
  '2026-04-20'

/**
 * The benchmark worker over one catalog: with the Cache API, without any cache, or without any
 * cache and with D1 answered by another workerd (`d1`), so that this one's CPU is the worker's.
 */
export async function serve(
  state: string,
  mode: 'cached' | 'uncached' | 'cpu',
  d1?: D1Database,
): Promise<{ mf: Miniflare; base: string; pid: number }> {
  const before = await workerdPids()
  const mf = new Miniflare({
    scriptPath: join(HARNESS, 'bench-worker.js'),
    modules: true,
    compatibilityDate,
    bindings: {
      PUBLIC_ORIGIN: 'https://www.care.example',
      ENVIRONMENT: 'bench',
      SENTRY_BROWSER_DSN: '',
      ...(mode === 'cached' ? {} : { BENCH_UNCACHED: '1' }),
    },
    d1Databases: { DB: 'DB' },
    kvNamespaces: { FLAGS: 'FLAGS', GATE: 'GATE', PURGES: 'PURGES' },
    d1Persist: join(state, 'd1'),
    kvPersist: join(state, 'kv'),
    cache: mode === 'cached',
    cachePersist: false,
    ...(d1
      ? {
          serviceBindings: {
            D1_ELSEWHERE: async (req: { json(): Promise<unknown> }) => {
              const { sql, params } = (await req.json()) as { sql: string; params: unknown[] }
              return Response.json(
                await d1
                  .prepare(sql)
                  .bind(...params)
                  .all(),
              )
            },
          },
        }
      : {}),
    // The worker's log line per request is still written (its cost counts), but not shown.
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      stdout.resume()
      stderr.resume()
    },
  })
  const url = await mf.ready
  const [pid = 0] = (await workerdPids()).filter((p) => !before.includes(p))
  return { mf, base: url.origin, pid }
}

async function workerdPids(): Promise<number[]> {
  const pids: number[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '')
    if (comm.trim() === 'workerd') pids.push(Number(entry))
  }
  return pids
}

/** CPU time workerd has used, in ms (user and system; /proc counts in clock ticks of 10 ms). */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}
