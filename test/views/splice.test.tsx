import fc from 'fast-check'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Card } from '../../src/views/listing/card'
import type { ListingState } from '../../src/views/listing/listing-state'
import { findSimilarProviders } from '../../src/data/provider-listing'
import { openDb } from '../../src/data/db'
import { Timing } from '../../src/observability/timing'
import { providerCard } from '../../src/views/directory/provider-card'
import { providerPath } from '../../src/urls/paths'
import { fetchPage, GOOGLEBOT, PHONE } from '../support/fetch-page'
import { coalesce } from '../../src/views/coalesce'
import { Splices } from '../../src/views/splice'
import { shardOfEntity } from '../support/builders'
import { fromShards } from '../support/databases'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** `bytes` cut at each of `cuts` (positions, any order) and streamed as separate bursts. */
async function streamedInPieces(bytes: Uint8Array, cuts: number[], splices: Splices) {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const pieces = [0, ...at, bytes.length]
    .slice(1)
    .map((end, i, ends) => bytes.subarray(i === 0 ? 0 : (ends[i - 1] ?? 0), end))
  const source = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const piece = pieces.shift()
      if (piece === undefined) return controller.close()
      // A pause between pieces longer than a burst's: each piece is a chunk of its own.
      for (let i = 0; i < 10; i++) await Promise.resolve()
      controller.enqueue(piece)
    },
  })
  return decoder.decode(await new Response(coalesce(source, splices).body).arrayBuffer())
}

// Text as a page may hold it around the markers: markup, NULs (never after a `<`), digits.
const text = fc.oneof(
  fc.string({ maxLength: 30 }).map((s) => s.replaceAll('<\0', '< \0')),
  fc.constantFrom('<', '\0', '\x001>', '<p>', '12>', '<\u00e9>', '😀'),
)

describe('splices: fragments placed as bytes', () => {
  it('writes each fragment where its marker is, however the stream is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(text, fc.nat()), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (fragments, parts, cuts) => {
          const splices = new Splices()
          const markers = fragments.map((f) => splices.place(encoder.encode(f)))
          const page = parts.map(([t, i]) => t + (markers[i % markers.length] ?? '')).join('')
          const expected = parts
            .map(([t, i]) => t + (fragments[i % fragments.length] ?? ''))
            .join('')
          expect(await streamedInPieces(encoder.encode(page), cuts, splices)).toBe(expected)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('leaves what only looks like a marker as it is', async () => {
    const splices = new Splices()
    splices.place(encoder.encode('<li>placed</li>'))
    const page = 'a<\x007>b<\x00>c<\x000x>d\x000>e<'
    expect(await streamedInPieces(encoder.encode(page), [2, 9], splices)).toBe(page)
  })

  it("leaves another page's markers as they are: text cannot know this page's key", async () => {
    const splices = new Splices()
    const ours = splices.place(encoder.encode('<li>placed</li>'))
    const theirs = new Splices().place(encoder.encode('<li>other</li>'))
    const page = `a${theirs}b${ours.slice(0, -2)}c`
    expect(await streamedInPieces(encoder.encode(page), [3, 12], splices)).toBe(page)
  })

  it('serves a listing page whose cards are what a fresh render of them writes, with no marker left', async () => {
    const path = '/babysitters/atlanta-ga'
    const page = await fetchPage(path)
    const res = await fetchPage(`/_data${path}`, { headers: { 'x-data-request': '1' } })
    const state = await res.json<ListingState>()
    const html = await page.text()
    expect(state.results.cards.length).toBeGreaterThan(0)
    expect(html).not.toContain('\0')
    const cards = state.results.cards.map((card) => renderToString(<Card card={card} />)).join('')
    expect(html).toContain(`<ul class="cards">${cards}</ul>`)
    expect(html).toMatch(/<header class="site-header"><div class="wrap"><a class="logo"/)
    expect(html).toMatch(/<footer class="site-footer"><div class="wrap"><h2>Find care<\/h2>/)
  })

  it("serves a profile's similar providers, streamed or complete, as a fresh render of their cards writes", async () => {
    // A babysitter with no other service: the profile's similar providers are other babysitters.
    const [p] = (
      await fromShards<{ id: number; nameSlug: string; cityId: number }>(
        `SELECT p.id, p.name_slug AS nameSlug, p.city_id AS cityId FROM providers p
          WHERE (SELECT group_concat(service) FROM provider_services WHERE provider_id = p.id) = 'babysitters'
          ORDER BY p.id LIMIT 1`,
      )
    ).sort((a, b) => a.id - b.id)
    if (!p) throw new Error('the test catalog has no babysitter alone')
    const similar = await findSimilarProviders(
      openDb((await shardOfEntity('provider', p.id)).db, new Timing()),
      'babysitters',
      p.cityId,
      p.id,
    )
    expect(similar.length).toBeGreaterThan(0)
    const cards = similar
      .map((s) => renderToString(<Card card={providerCard(s, null, false)} />))
      .join('')
    // A person's page streams the section after the shell; a crawler's has it in place.
    for (const agent of [PHONE, GOOGLEBOT]) {
      const html = await (
        await fetchPage(providerPath(p), { headers: { 'user-agent': agent } })
      ).text()
      expect(html).not.toContain('\0')
      expect(html).toContain(`<ul class="cards">${cards}</ul>`)
    }
  })
})
