// Lighthouse scores of one sample of each page of the page table (src/pages.ts), with Debian's Chromium:
//
//   npm run audit                                      seeds, starts its own `wrangler dev`
//   npm run audit -- --origin http://localhost:8787    audits a server that is already running
//
// Prints performance, accessibility, best practices and SEO (0–100) per page, then the audits
// of the last three categories that did not pass. Exits non-zero when an audit fails to run,
// never for a low score. Filtered and noindex pages score lower on SEO by design.
import type { ChildProcess } from 'node:child_process'
import { execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { parseArgs } from 'node:util'
import type { LaunchedChrome } from 'chrome-launcher'
import { launch } from 'chrome-launcher'
import type { Result } from 'lighthouse'
import lighthouse from 'lighthouse'
import type { SamplePage } from './sample-pages'
import { CHROMIUM_FLAGS, requireChromium } from './chromium'
import { DEV_KEYS_FILE, developmentKeys } from './access-dev'
import { consolePages, samplePages } from './sample-pages'

const CHROME = requireChromium()
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS]
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }

const { values } = parseArgs({ options: { origin: { type: 'string' } } })
const command = [
  'npm run audit',
  ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : []),
]

interface Row extends SamplePage {
  scores?: Record<(typeof CATEGORIES)[number], number | null>
  error?: string
  flagged?: string[]
}

const started = Date.now()
let versions = ''
let dev: ChildProcess | undefined
let chrome: LaunchedChrome | undefined
process.on('SIGINT', () => {
  stop()
  process.exit(130)
})
process.on('SIGTERM', () => {
  stop()
  process.exit(143)
})

let failed = true
try {
  const origin = values.origin ?? (await startDev())
  const list = [...(await samplePages(origin)), ...(await consolePages(origin))]
  if (!list.length) throw new Error(`no page of ${origin} answers 200`)
  const rows = await audit(origin, list)
  print(origin, rows)
  failed = rows.some((r) => r.error)
} catch (e) {
  console.error(e instanceof Error ? e.message : e)
} finally {
  stop()
}
process.exit(failed ? 1 : 0)

/** Runs Lighthouse on each page in one Chromium, one page after the other. */
async function audit(origin: string, list: SamplePage[]): Promise<Row[]> {
  chrome = await launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS, logLevel: 'silent' })
  const rows: Row[] = []
  for (const page of list) {
    const t = Date.now()
    try {
      const runner = await lighthouse(new URL(page.path, origin).href, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        ...(page.headers ? { extraHeaders: page.headers } : {}),
      })
      const lhr = runner?.lhr
      if (!lhr) throw new Error('no result')
      if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`)
      const browser = /(?:Headless)?Chrome\/[\d.]+/.exec(lhr.environment.hostUserAgent)?.[0]
      versions = `Lighthouse ${lhr.lighthouseVersion}, ${browser ?? lhr.environment.hostUserAgent}`
      const scores = Object.fromEntries(
        CATEGORIES.map((id) => {
          const score = lhr.categories[id]?.score
          return [id, typeof score === 'number' ? Math.round(score * 100) : null]
        }),
      ) as Row['scores']
      rows.push({
        ...page,
        scores,
        flagged: [...lhr.runWarnings.map((w) => `warning: ${w}`), ...flagged(lhr)],
      })
      console.log(`audited ${page.path} in ${((Date.now() - t) / 1000).toFixed(1)} s`)
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e)
      rows.push({ ...page, error })
      console.error(`audit of ${page.path} failed: ${error}`)
    }
  }
  return rows
}

/** The audits of accessibility, best practices and SEO that scored below 1. */
function flagged(lhr: Result): string[] {
  const out: string[] = []
  for (const id of CATEGORIES.slice(1)) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id]
      if (a && typeof a.score === 'number' && a.score < 1) {
        const items = field(a.details, 'items')
        const where = Array.isArray(items) ? (items as unknown[]).map(place) : []
        const more = where.length > 3 ? ` and ${where.length - 3} more` : ''
        out.push(
          `${id}: ${a.id} ${a.title}${where.length ? ` at ${where.slice(0, 3).join(', ')}${more}` : ''}`,
        )
      }
    }
  }
  return out
}

function field(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined
}

/** Where a failing item is: the selector of its node, or the URL of its source. */
function place(item: unknown): string {
  const at =
    field(field(item, 'node'), 'selector') ??
    field(field(item, 'source'), 'snippet') ??
    field(field(item, 'sourceLocation'), 'url') ??
    field(item, 'url')
  const what = field(item, 'description')
  return [at, what].filter((x) => typeof x === 'string').join(' ') || '?'
}

function print(origin: string, rows: Row[]): void {
  const head = ['page', 'path', 'performance', 'accessibility', 'best practices', 'SEO']
  const body = rows.map((r) => [
    r.name,
    r.path,
    ...CATEGORIES.map((id) => (r.error ? 'error' : String(r.scores?.[id] ?? '–'))),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)))
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`
  console.log('')
  console.log(`${versions || 'Lighthouse'} (${CHROME}), mobile, ${origin}`)
  console.log(`date: ${new Date().toISOString()}`)
  console.log(`command: ${command.join(' ')}`)
  console.log('')
  console.log(line(head))
  console.log(line(widths.map((w, i) => (i < 2 ? '-'.repeat(w) : '-'.repeat(w - 1) + ':'))))
  for (const b of body) console.log(line(b))
  for (const r of rows) {
    if (r.error) console.log(`\n${r.path}: audit failed: ${r.error}`)
    else if (r.flagged?.length) console.log(`\n${r.path}:\n  ${r.flagged.join('\n  ')}`)
  }
  console.log(`\n${rows.length} pages in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

/** Seeds the local D1 and starts `wrangler dev` on a free port; resolves to its origin. */
async function startDev(): Promise<string> {
  if (!existsSync('dist/asset-manifest.json')) throw new Error('no dist/: run `npm run build`')
  const seeded = execFile('node_modules/.bin/tsx', ['scripts/seed.ts'], { env: ENV })
  seeded.stdout?.pipe(process.stdout)
  seeded.stderr?.pipe(process.stderr)
  await new Promise<void>((resolve, reject) =>
    seeded.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seed: exit ${code}`)))),
  )
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  let log = ''
  dev = spawn(
    'node_modules/.bin/wrangler',
    [
      ...['dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', '0'],
      // The ops console behind `npm start`'s development key pair, as Access would sign it (a
      // development key is refused where ENVIRONMENT says deployed, as wrangler.toml's default).
      ...['--var', `ACCESS_JWKS:${developmentKeys(DEV_KEYS_FILE).jwks}`],
      ...['--var', 'ENVIRONMENT:development'],
    ],
    { env: ENV, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000))
  dev.stdout?.on('data', keep)
  dev.stderr?.on('data', keep)
  let exited = false
  dev.on('exit', () => (exited = true))
  for (let i = 0; ; i++) {
    const ok = await fetch(`${origin}/babysitters`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ok) break
    if (exited || i > 120) {
      throw new Error(`wrangler dev did not start${exited ? '' : ' within 60 s'}:\n${log}`)
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  console.log(`wrangler dev on ${origin}`)
  return origin
}

function stop(): void {
  try {
    chrome?.kill()
  } catch {
    // already gone
  }
  chrome = undefined
  if (dev?.pid && dev.exitCode === null) {
    try {
      process.kill(-dev.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  dev = undefined
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}
