import { env } from 'cloudflare:workers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { cutAtNonce, includesText, joinWithNonce, newNonce } from '../../src/lib/nonce'
import { hashedScripts } from '../../src/lib/script-hashes'
import type { Isolate } from '../support/fetch-page'
import { anIsolate, sameDocument } from '../support/fetch-page'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (body: Uint8Array) => new TextDecoder().decode(body)

describe('nonces', () => {
  it('are 16 random bytes, never the same twice', () => {
    const seen = new Set(Array.from({ length: 1000 }, newNonce))
    expect(seen.size).toBe(1000)
    for (const nonce of seen) expect(atob(nonce)).toHaveLength(16)
  })

  it('put a new nonce wherever the old one was, and nowhere else', () => {
    const old = newNonce()
    const page = `<script nonce="${old}">a()</script><p>nonce="${old.slice(1)}" ${old}</p><script nonce="${old}"></script>`
    const parts = cutAtNonce(bytes(page), old)
    expect(parts).toHaveLength(3)
    expect(text(joinWithNonce(parts, 'NEW'))).toBe(page.replaceAll(`nonce="${old}"`, 'nonce="NEW"'))
  })

  it('leave a document without the nonce as it is', () => {
    const page = '<p>nonce="elsewhere"</p>é'
    expect(text(joinWithNonce(cutAtNonce(bytes(page), 'abc'), 'NEW'))).toBe(page)
    expect(text(joinWithNonce(cutAtNonce(bytes(''), 'abc'), 'NEW'))).toBe('')
  })

  it('find the nonce at the very start and the very end', () => {
    const page = 'nonce="abc"x nonce="abc"'
    expect(text(joinWithNonce(cutAtNonce(bytes(page), 'abc'), 'Z'))).toBe('nonce="Z"x nonce="Z"')
  })
})

describe("a stored copy's scripts", () => {
  const sha256 = async (code: string) =>
    `'sha256-${btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes(code)))))}'`

  it('are hashed once each, the nonce emptied, and nothing else counted as a script', async () => {
    const old = newNonce()
    const page = [
      `<link rel="modulepreload" href="/a.js" nonce="${old}"/>`,
      `<script nonce="${old}">$RC("B:0","S:0")</script>`,
      `<script type="module" src="/c.js" nonce="${old}"></script>`,
      `<p title="a &lt;b&gt;">x</p><script async="" nonce="${old}">a()</script>`,
      `<script nonce="${old}">$RC("B:0","S:0")</script>`,
      `<script nonce="other">b()</script>`,
    ].join('')
    const { body, hashes } = await hashedScripts(bytes(page), old)
    expect(text(body)).toBe(page.replaceAll(`nonce="${old}"`, 'nonce=""'))
    expect(hashes).toEqual([await sha256('$RC("B:0","S:0")'), await sha256('a()')])
  })

  it('are none in a document without the nonce, which is kept as it is', async () => {
    const page = bytes('<script type="application/json">{}</script><p>é</p>')
    const { body, hashes } = await hashedScripts(page, newNonce())
    expect(hashes).toEqual([])
    expect(text(body)).toBe(text(page))
  })
})

describe('finding text in a body', () => {
  const piece = (nonce: string) =>
    fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom(`nonce="${nonce}"`, nonce, 'nonce="', '<template id="B:0">', 'é😀', 'ABC:'),
    )

  it('cuts and finds exactly where a plain string search does, in any document', () => {
    const nonce = newNonce()
    fc.assert(
      fc.property(fc.array(piece(nonce), { maxLength: 12 }), (pieces) => {
        const page = pieces.join('')
        const joined = text(joinWithNonce(cutAtNonce(bytes(page), nonce), 'NEW'))
        expect(joined).toBe(page.replaceAll(`nonce="${nonce}"`, 'nonce="NEW"'))
        expect(includesText(bytes(page), '<template id="B:')).toBe(
          page.includes('<template id="B:'),
        )
      }),
      { numRuns: 500 },
    )
  })
})

const inBody = (html: string) => [...html.matchAll(/ nonce="([^"]*)"/g)].map((m) => m[1])
const inPolicy = (res: Response) =>
  /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1]

describe('every HTML response', () => {
  // The tag manager's inline script is on every page, error pages included. An isolate that
  // reads the store once it says so.
  let isolate: Isolate
  beforeAll(async () => {
    await env.FLAGS.put('flags', JSON.stringify({ config: { tagManagerEnabled: true } }))
    isolate = anIsolate()
  })
  afterAll(async () => {
    await env.FLAGS.delete('flags')
  })

  it.each([
    ['a page rendered, then served from memory, then from the Cache API', '/tutors/seattle-wa'],
    ['an error page rendered once and served again', '/nope/atlanta-ga'],
  ])('carries its own nonce in its policy and its scripts: %s', async (_, path) => {
    const responses = [await isolate.settled(path), await isolate.settled(path)]
    // Another isolate has only the Cache API's copy.
    responses.push(await anIsolate().settled(path))
    for (const { res, body } of responses) {
      const nonce = inPolicy(res)
      expect(inBody(body).length).toBeGreaterThan(0)
      for (const n of inBody(body)) expect(n).toBe(nonce)
    }
    expect(new Set(responses.map(({ res }) => inPolicy(res))).size).toBe(3)
    expect(new Set(responses.map(({ body }) => sameDocument(body))).size).toBe(1)
  })
})
