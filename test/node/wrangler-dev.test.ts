// The worker as `npm start` runs it: the real `wrangler dev` (no Node compatibility added by a
// test pool), over a local D1 seeded by scripts/seed.ts into a folder of its own.
import type { ChildProcess } from 'node:child_process'
import { execFile, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'

const run = promisify(execFile)
const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
let dir = ''
let base = ''
let dev: ChildProcess | undefined

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'care-dev-'))
  await run(
    'node_modules/.bin/tsx',
    ['scripts/seed.ts', '--persist-to', dir, '--scale', '0.05', '--cities', '30'],
    {
      env: ENV,
    },
  )
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  dev = spawn(
    'node_modules/.bin/wrangler',
    [
      'dev',
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--persist-to',
      dir,
      '--inspector-port',
      '0',
      '--var',
      'PURGE_TOKEN:cli-test-token',
    ],
    { env: ENV, detached: true, stdio: 'ignore' },
  )
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/babysitters`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ok) break
    if (i > 120) throw new Error('wrangler dev did not start within 60 s')
    await new Promise((r) => setTimeout(r, 500))
  }
})

afterAll(async () => {
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM')
  await rm(dir, { recursive: true, force: true })
})

it('serves a directory page with provider cards from the seeded D1', async () => {
  const res = await fetch(`${base}/babysitters/atlanta-ga`)
  expect(res.status).toBe(200)
  const html = await res.text()
  expect(html).toContain('<h1>Babysitters in Atlanta, GA</h1>')
  expect(html.match(/<li class="card">/g)?.length).toBeGreaterThan(0)
})

it('rejects an unknown city and redirects an uppercase path', async () => {
  expect((await fetch(`${base}/babysitters/atlantis-zz`)).status).toBe(404)
  const res = await fetch(`${base}/Babysitters/Atlanta-GA/`, { redirect: 'manual' })
  expect(res.status).toBe(301)
  expect(res.headers.get('location')).toBe('/babysitters/atlanta-ga')
})

it('caches a page at the edge until the purge CLI purges it, and logs the purge', async () => {
  const cache = async () => (await fetch(`${base}/nannies/atlanta-ga`)).headers.get('x-cache')
  expect(await cache()).toBe('MISS')
  await expect.poll(cache, { timeout: 5000 }).toBe('HIT')
  const purge = (...args: string[]) =>
    run('node_modules/.bin/tsx', ['scripts/purge.ts', ...args], {
      env: { ...ENV, PURGE_TOKEN: 'cli-test-token' },
    })
  const purged = await purge('--origin', base, '--url', '/nannies/atlanta-ga', '--tag', 'city:x')
  expect(purged.stdout).toContain('"purged":{"urls":1,"tags":1}')
  expect(await cache()).toBe('MISS')
  await expect(
    run('node_modules/.bin/tsx', ['scripts/purge.ts', '--origin', base, '--url', '/x'], {
      env: { ...ENV, PURGE_TOKEN: 'wrong' },
    }),
  ).rejects.toThrow(/401/)
  const log = await purge('--log', '--persist-to', dir)
  expect(log.stdout).toMatch(
    /\d{4}-\d\d-\d\dT\S+ {2}ops {2}2 purged {2}urls=\["\/nannies\/atlanta-ga"\] {2}tags=\["city:x"\]/,
  )
})

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
