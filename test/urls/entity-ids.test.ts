import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { ID } from '../../src/catalog/ranges'
import { applyAcross } from '../support/databases'
import { onEntityShard } from '../support/builders'
import { MESSAGE_SCHEMAS, messageProblems } from '../../src/sync/messages'
import { entityId, jobPath, PATTERNS, providerPath } from '../../src/urls/paths'
import { anIsolate } from '../support/fetch-page'
import { aMessage } from '../sync/examples'

// One range of ids (src/catalog/ranges.ts): every id the contract takes routes to its entity's
// pages, and the URL parser takes no id the contract refuses.

const idSchema = MESSAGE_SCHEMAS['provider.removed'].shape.id

/** The id a profile or job path routes to, as the page table routes it; null: no route. */
const router = new Hono()
  .get(PATTERNS.provider, (c) => c.json(entityId(c.req.param('slug'))))
  .get(PATTERNS.job, (c) => c.json(entityId(c.req.param('slug'))))
async function routedId(path: string): Promise<number | null> {
  const res = await router.request(path)
  return res.status === 200 ? await res.json<number | null>() : null
}

/** Numbers on both sides of every edge of the range, and any in between. */
const candidates = fc.oneof(
  fc.maxSafeInteger(),
  fc.integer({ min: -3, max: 3 }),
  fc.integer({ min: 0, max: 99 }).map((n) => ID.max - 50 + n),
  fc.constantFrom(ID.max, ID.max + 1, 2 ** 53 + 2, 1e16, 1000000785878117, 1.5),
)
const nameSlug = fc.stringMatching(/^[a-z0-9]{1,12}(?:-[a-z0-9]{1,12}){0,3}$/)

describe('entity ids', () => {
  it('routes every id the contract takes to its profile and job, and no other', async () => {
    await fc.assert(
      fc.asyncProperty(candidates, nameSlug, async (id, slug) => {
        const taken = idSchema.safeParse(id).success
        const paths = [providerPath({ nameSlug: slug, id }), jobPath({ titleSlug: slug, id })]
        for (const path of paths) expect(await routedId(path)).toBe(taken ? id : null)
      }),
      { numRuns: 500 },
    )
  })

  it('parses back ids of all 16 digits, and refuses a 17th or a number past 2^53 − 1', () => {
    expect(entityId('bigid-z-1000000785878117')).toBe(1000000785878117)
    expect(entityId(`x-${ID.max}`)).toBe(ID.max)
    expect(entityId('x-9007199254740992')).toBeNull()
    expect(entityId('x-10000000000000000')).toBeNull()
    expect(entityId('x-0')).toBeNull()
  })

  it('routes an entity whose name keeps no letter in a slug by its id alone', async () => {
    expect(providerPath({ nameSlug: '', id: 42 })).toBe('/p/42')
    expect(await routedId(jobPath({ titleSlug: '', id: 43 }))).toBe(43)
  })

  it('refuses an id out of range at the door, naming the field', () => {
    const message = { kind: 'provider.removed', id: 2 ** 53, version: 1 }
    expect(messageProblems(message)).toEqual([`id: must be a whole number from 1 to ${ID.max}`])
    const review = aMessage('review.added') as { entity: Record<string, unknown> }
    review.entity.providerId = 0
    expect(messageProblems(review)).toEqual([
      `entity.providerId: must be a whole number from 1 to ${ID.max}`,
    ])
  })

  it('serves the profile of a provider with a 16-digit id that sync applied', async () => {
    const id = 1000000785878117
    await applyAcross([
      aMessage('provider.upserted', (m) => {
        m.id = id
        m.entity.firstName = 'Bigid'
        m.entity.lastName = 'Zed'
      }),
    ])
    const { res } = await anIsolate().settled(`/p/bigid-z-${id}`)
    expect(res.status).toBe(200)
    await onEntityShard('provider', id, (db) => [
      db.prepare('DELETE FROM provider_services WHERE provider_id = ?').bind(id),
      db.prepare('DELETE FROM providers WHERE id = ?').bind(id),
    ])
  })
})
