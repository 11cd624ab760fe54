// A fresh clone as a newcomer has it: no built assets, no local state. After the seed, a bare
// `wrangler dev` builds the assets itself (wrangler.toml [build]) and serves pages that link them.
import type { ChildProcess } from 'node:child_process'
import { execFile, execFileSync, spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'

const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
let dir = ''
let dev: ChildProcess | undefined
let base = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'care-clone-'))
  // The repository's files as a clone has them (committed, or new and not ignored): no dist/.
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
  for (const file of files) {
    await mkdir(join(dir, dirname(file)), { recursive: true })
    await cp(file, join(dir, file)).catch(() => undefined) // a file deleted but not yet committed
  }
  await symlink(resolve('node_modules'), join(dir, 'node_modules'))
  await promisify(execFile)(
    'node_modules/.bin/tsx',
    ['scripts/seed.ts', '--cities', '20', '--scale', '0.05'],
    {
      cwd: dir,
      env: ENV,
    },
  )
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  dev = spawn(
    'node_modules/.bin/wrangler',
    ['dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', '0'],
    { cwd: dir, env: ENV, detached: true, stdio: 'ignore' },
  )
  // Until wrangler dev answers: it announces nothing else a test can wait on.
  await vi.waitFor(
    async () => {
      const res = await fetch(`${base}/robots.txt`)
      if (!res.ok) throw new Error(`wrangler dev answered ${res.status}`)
    },
    { timeout: 120_000, interval: 200 },
  )
}, 240_000)

afterAll(async () => {
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM')
  await rm(dir, { recursive: true, force: true })
})

it('serves a directory page and the stylesheet it links, built by wrangler dev itself', async () => {
  const res = await fetch(`${base}/babysitters/atlanta-ga`)
  expect(res.status).toBe(200)
  const html = await res.text()
  expect(html).toContain('<h1>Babysitters in Atlanta, GA</h1>')
  const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1] ?? ''
  expect(stylesheet).toMatch(/^\/assets\/styles\.[0-9a-f]{10}\.css$/)
  const css = await fetch(base + stylesheet)
  expect(css.status).toBe(200)
  expect((await css.text()).length).toBeGreaterThan(1000)
})

it('seeds control and both shards, each with its part of the catalog', async () => {
  // The providers of the catalog the seed generated and imported (its change messages).
  const generated = await readFile(join(dir, '.wrangler/state/catalog.ndjson'), 'utf8')
  const catalog = {
    providers: generated.split('\n').filter((l) => l.includes('"kind":"provider.upserted"')).length,
  }
  const [control] = await rows(
    'CONTROL',
    `SELECT (SELECT COUNT(*) FROM provider_directory) AS providers,
            (SELECT COUNT(*) FROM service_state_stats) AS states,
            (SELECT COUNT(*) FROM zip_codes) AS zips`,
  )
  const shards = await Promise.all(
    ['SHARD_00', 'SHARD_01'].map(
      async (shard) =>
        (
          await rows(
            shard,
            `SELECT (SELECT COUNT(*) FROM providers) AS providers,
                    (SELECT COUNT(*) FROM service_city_stats) AS stats`,
          )
        )[0],
    ),
  )
  expect(catalog?.providers).toBeGreaterThan(0)
  expect(control?.providers).toBe(catalog?.providers)
  expect(control?.states).toBeGreaterThan(0)
  expect(control?.zips).toBeGreaterThan(0)
  for (const shard of shards) {
    expect(shard?.providers).toBeGreaterThan(0)
    expect(shard?.stats).toBeGreaterThan(0)
  }
  expect((shards[0]?.providers ?? 0) + (shards[1]?.providers ?? 0)).toBe(catalog?.providers)
}, 60_000)

/** The rows of `sql` on the clone's local D1 `binding`, as `wrangler d1 execute --local` reads them. */
async function rows(binding: string, sql: string): Promise<Record<string, number>[]> {
  const { stdout } = await promisify(execFile)(
    'node_modules/.bin/wrangler',
    ['d1', 'execute', binding, '--local', '--json', '--command', sql],
    { cwd: dir, env: ENV },
  )
  return (JSON.parse(stdout) as { results: Record<string, number>[] }[])[0]?.results ?? []
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? done(address.port) : fail(new Error('no port')),
      )
    })
  })
}
