// The worker as `npm start` runs it: the real `wrangler dev` (no Node compatibility added by a
// test pool), over a local D1 seeded by scripts/seed.ts (test/e2e/server.ts).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, inject, it } from 'vitest'
import { E2E_PURGE_TOKEN } from './server'

const run = promisify(execFile)
const ENV = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' }
const base = inject('baseUrl')

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

it('serves the static assets as immutable, with the security headers pages have', async () => {
  const html = await (await fetch(`${base}/nannies/atlanta-ga`)).text()
  const script = /<script type="module" src="([^"]+)"/.exec(html)?.[1] ?? ''
  const res = await fetch(base + script)
  expect(res.status).toBe(200)
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  expect(res.headers.get('strict-transport-security')).toContain('max-age=63072000')
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
})

it('caches a page at the edge until the purge CLI purges it, and logs the purge', async () => {
  const cache = async () => (await fetch(`${base}/nannies/atlanta-ga`)).headers.get('x-cache')
  await expect.poll(cache, { timeout: 5000 }).toBe('HIT')
  const purge = (token: string, ...args: string[]) =>
    run('node_modules/.bin/tsx', ['scripts/purge.ts', ...args], {
      env: { ...ENV, PURGE_TOKEN: token },
    })
  const purged = await purge(
    E2E_PURGE_TOKEN,
    ...['--origin', base, '--url', '/nannies/atlanta-ga', '--tag', 'city:x'],
  )
  expect(purged.stdout).toMatch(
    /^purged 2: url \/nannies\/atlanta-ga, tag city:x \(by ops at \S+ on http:\/\/127\.0\.0\.1:\d+\)$/m,
  )
  expect(await cache()).toBe('MISS')
  await expect(purge('wrong', '--origin', base, '--url', '/x')).rejects.toThrow(/401/)
  const log = await purge(E2E_PURGE_TOKEN, '--log', '--persist-to', inject('persistDir'))
  expect(log.stdout).toMatch(
    /\d{4}-\d\d-\d\dT\S+ {2}ops {2}purged {2}2 purged {2}urls=\["\/nannies\/atlanta-ga"\] {2}tags=\["city:x"\]/,
  )
  // Refusals are logged too, naming no one.
  expect(log.stdout).toMatch(/\d{4}-\d\d-\d\dT\S+ {2}unknown {2}refused: unauthorized \(401\)/)
})
