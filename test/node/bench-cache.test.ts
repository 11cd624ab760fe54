// The bench's misses have their Cache API answered by another workerd, as production's cache is
// another process (scripts/bench/harness.ts `Caching`): a `put` leaves the site's workerd with
// the copy, and nothing in the site's workerd answers it.
import type { IncomingMessage } from 'node:http'
import { createServer } from 'node:http'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { convertV4MiniflareOptions, Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Server } from '../../scripts/bench/harness'
import { serveCache, siteOptions } from '../../scripts/bench/harness'

/** A worker that stores a page through the Cache API, then looks it up. */
const STORES_AND_LOOKS_UP = `export default {
  async fetch() {
    const key = 'https://www.care.example/babysitters/atlanta-ga'
    await caches.default.put(key, new Response('the stored copy', {
      headers: { 'content-type': 'text/html', 'cache-control': 'public, max-age=60' },
    }))
    return new Response((await caches.default.match(key)) ? 'found' : 'missed')
  },
}`

interface Received {
  method: string
  path: string
  body: string
}

let state: string
beforeAll(async () => {
  state = await mkdtemp(join(tmpdir(), 'care-bench-cache-'))
})
afterAll(async () => {
  await rm(state, { recursive: true, force: true })
})

/** The bench's site, its worker replaced by `STORES_AND_LOOKS_UP`, its cache at `cache`. */
async function siteCachingAt(cache: Pick<Server, 'base'> | null): Promise<Miniflare> {
  const options = siteOptions(state, { missing: ['/babysitters/atlanta-ga'], cache })
  const mf = new Miniflare(
    convertV4MiniflareOptions({ ...options, scriptPath: undefined, script: STORES_AND_LOOKS_UP }),
  )
  await mf.ready
  return mf
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString()
}

describe("a missing page's Cache API in the bench", () => {
  it('is answered by the process it names: each put arrives there with the copy', async () => {
    const received: Received[] = []
    const recorder = createServer((req, res) => {
      void bodyOf(req).then((body) => {
        received.push({ method: req.method ?? '', path: req.url ?? '', body })
        // As Miniflare's own no-op cache: every lookup a miss, every put taken.
        if (req.method === 'GET') res.writeHead(504, { 'cf-cache-status': 'MISS' }).end()
        else res.writeHead(204).end()
      })
    })
    recorder.listen(0, '127.0.0.1')
    await once(recorder, 'listening')
    const { port } = recorder.address() as AddressInfo
    const site = await siteCachingAt({ base: `http://127.0.0.1:${port}` })
    try {
      const res = await site.dispatchFetch('http://localhost/')
      expect(await res.text()).toBe('missed')
      // Had the site's own workerd answered them (Miniflare's no-op worker), none would arrive.
      expect(received.map((r) => r.method)).toEqual(['PUT', 'GET'])
      const [put] = received
      expect(put?.path).toContain('/babysitters/atlanta-ga')
      // The copy as the worker serialised it: status line, headers and body.
      expect(put?.body).toMatch(/^HTTP\/1\.1 200/)
      expect(put?.body).toContain('the stored copy')
    } finally {
      await site.dispose()
      recorder.close()
    }
  })

  it("is answered by serveCache's workerd as Miniflare's no-op cache answers it", async () => {
    const cache = await serveCache()
    const site = await siteCachingAt(cache)
    try {
      expect(await (await site.dispatchFetch('http://localhost/')).text()).toBe('missed')
      const put = await fetch(`${cache.base}/page`, {
        method: 'PUT',
        body: 'HTTP/1.1 200 OK\r\n\r\n',
      })
      expect(put.status).toBe(204)
      const lookup = await fetch(`${cache.base}/page`)
      expect([lookup.status, lookup.headers.get('cf-cache-status')]).toEqual([504, 'MISS'])
    } finally {
      await Promise.all([site.dispose(), cache.mf.dispose()])
    }
  })
})
