// Routing catalog changes across control and the shards (docs/scale.md): the test catalog's
// messages, routed with nothing known beforehand, land where the placement puts their cities,
// each provider's listings and reviews with it; what names no known city or provider is set
// aside with its reason; a provider whose city moves to another shard is a move.
import { describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { LAYOUTS } from '../../src/catalog/placement'
import type { CatalogMessage } from '../../src/sync/messages'
import { parseMessage } from '../../src/sync/messages'
import type { Whereabouts } from '../../src/sync/route'
import { routeMessages } from '../../src/sync/route'
import { catalogRows } from '../support/databases'
import { aMessage } from './examples'

const catalog: CatalogMessage[] = inject('catalogLines').map((line) => {
  const parsed = parseMessage(JSON.parse(line))
  if (!parsed.ok) throw new Error(parsed.reasons.join('; '))
  return parsed.message
})

const nothingKnown: Whereabouts = { citySlug: () => null, providerShard: () => null }

/** The first column of `sql`'s rows, as the catalog holds them (control's, or every shard's). */
async function column<T>(sql: string): Promise<T[]> {
  const rows = await catalogRows<Record<string, T>>(sql)
  return rows.map((row) => Object.values(row)[0] as T)
}

const ids = (messages: CatalogMessage[], kind: CatalogMessage['kind']) =>
  messages.filter((m) => m.kind === kind).map((m) => m.id)

describe('the test catalog routed on two shards', () => {
  const routed = routeMessages(LAYOUTS.two, catalog, nothingKnown)

  it('places every message, and moves no one', () => {
    expect(routed.unplaced).toEqual([])
    expect(routed.moves).toEqual([])
    expect(routed.jobMoves).toEqual([])
  })

  it('gives control and every shard each city, and control alone the activities', () => {
    const cities = ids(catalog, 'city.added')
    expect(ids(routed.control, 'city.added')).toEqual(cities)
    for (const shard of routed.shards) expect(ids(shard, 'city.added')).toEqual(cities)
    expect(ids(routed.control, 'activity.upserted')).toEqual(ids(catalog, 'activity.upserted'))
    for (const shard of routed.shards)
      expect(shard.some((m) => m.kind.startsWith('activity.'))).toBe(false)
  })

  it('puts each provider and job on its city’s shard, and splits them between the two', async () => {
    const byShard = async (table: string, shard: number) =>
      column<number>(
        `SELECT t.id FROM ${table} t JOIN cities c ON c.id = t.city_id
          WHERE ${shard === 0 ? '' : 'NOT'} (c.slug = 'atlanta-ga' OR (c.state_code NOT IN ('GA') AND c.state_code NOT IN (${WEST})))
          ORDER BY t.id`,
      )
    for (const shard of [0, 1]) {
      const providers = ids(routed.shards[shard] ?? [], 'provider.upserted').sort((a, b) => a - b)
      expect(providers).toEqual(await byShard('providers', shard))
      expect(providers.length).toBeGreaterThan(0)
      const jobs = ids(routed.shards[shard] ?? [], 'job.upserted').sort((a, b) => a - b)
      expect(jobs).toEqual(await byShard('jobs', shard))
    }
  })

  it('keeps each provider’s listings and reviews with it', () => {
    for (const shard of routed.shards) {
      const providers = new Set(ids(shard, 'provider.upserted'))
      for (const m of shard) {
        if (m.kind === 'provider-service.offered') expect(providers.has(m.id)).toBe(true)
        if (m.kind === 'review.added') expect(providers.has(m.entity.providerId)).toBe(true)
      }
    }
    const listings = routed.shards.flatMap((s) => ids(s, 'provider-service.offered'))
    expect(listings.length).toBe(ids(catalog, 'provider-service.offered').length)
  })

  it('puts everything on the one shard of the one-shard layout', () => {
    const one = routeMessages(LAYOUTS.one, catalog, nothingKnown)
    expect(one.shards).toHaveLength(1)
    expect(one.shards[0]?.length).toBe(
      catalog.filter((m) => !m.kind.startsWith('activity.')).length,
    )
  })
})

// The states of the two-shard layout's second shard, as SQL.
const WEST = Object.entries(LAYOUTS.two.states)
  .filter(([state, shard]) => shard === 1 && state !== 'ga')
  .map(([state]) => `'${state.toUpperCase()}'`)
  .join(', ')

describe('a change routed by what the databases already hold', () => {
  const atlanta = 4180439
  const seattle = 5809844
  const known: Whereabouts = {
    citySlug: (id) => (id === atlanta ? 'atlanta-ga' : id === seattle ? 'seattle-wa' : null),
    providerShard: (id) => (id === 77 ? 1 : null),
    providerVersion: (id) => (id === 77 ? 5 : null),
    jobShard: (id) => (id === 88 ? 1 : null),
    removal: (id) => (id === 79 ? { shard: 1, version: 9 } : null),
    reviewsMove: true,
  }

  it('sends a listing, a review and a removal to the shard the directory names', () => {
    const listing = aMessage('provider-service.offered', (m) => (m.id = 77))
    const review = aMessage('review.added', (m) => (m.entity.providerId = 77))
    const removal = aMessage('provider.removed', (m) => (m.id = 77))
    const routed = routeMessages(LAYOUTS.two, [listing, review, removal], known)
    expect(routed.shards[1]).toEqual([listing, review, removal])
  })

  it('sends a review to every other shard as its removal, which stands for the review', () => {
    const review = aMessage('review.added', (m) => (m.entity.providerId = 77))
    const routed = routeMessages(LAYOUTS.two, [review], known)
    const elsewhere = { kind: 'review.removed', id: review.id, version: review.version }
    expect(routed.shards).toEqual([[elsewhere], [review]])
    expect(routed.sentFor.get(routed.shards[0]?.[0] as CatalogMessage)).toBe(review)
  })

  it('sends a review’s removal, which names no provider, to every shard', () => {
    const removal = aMessage('review.removed')
    expect(routeMessages(LAYOUTS.two, [removal], known).shards).toEqual([[removal], [removal]])
  })

  it('sets aside what names a city or provider no database has, saying which', () => {
    const job = aMessage('job.upserted', (m) => (m.entity.cityId = 1))
    const listing = aMessage('provider-service.offered', (m) => (m.id = 78))
    const routed = routeMessages(LAYOUTS.two, [job, listing], known)
    expect(routed.unplaced).toEqual([
      { message: job, reason: 'city 1 is on no shard' },
      { message: listing, reason: 'provider 78 is on no shard' },
    ])
  })

  it('notes a provider whose new city is on another shard as a move', () => {
    const moved = aMessage('provider.upserted', (m) => {
      m.id = 77
      m.entity.cityId = atlanta
    })
    const routed = routeMessages(LAYOUTS.two, [moved], known)
    expect(routed.shards).toEqual([[moved], []])
    expect(routed.moves).toEqual([{ id: 77, from: 1, to: 0 }])
  })

  it('sends an older upsert to the shard holding the newer version, as no move', () => {
    const late = aMessage('provider.upserted', (m) => {
      Object.assign(m, { id: 77, version: 4 })
      m.entity.cityId = atlanta
    })
    const routed = routeMessages(LAYOUTS.two, [late], known)
    expect(routed.shards).toEqual([[], [late]])
    expect(routed.moves).toEqual([])
  })

  it('sends what comes after a removal to the shard the provider was removed from', () => {
    const listing = aMessage('provider-service.withdrawn', (m) => (m.id = 79))
    const again = aMessage('provider.removed', (m) => Object.assign(m, { id: 79, version: 9 }))
    const late = aMessage('provider.upserted', (m) => {
      Object.assign(m, { id: 79, version: 8 })
      m.entity.cityId = atlanta
    })
    const back = aMessage('provider.upserted', (m) => {
      Object.assign(m, { id: 79, version: 10 })
      m.entity.cityId = atlanta
    })
    const routed = routeMessages(LAYOUTS.two, [listing, again, late, back], known)
    // Back after its removal, in a newer version: placed by its city, as a new provider.
    expect(routed.shards).toEqual([[back], [listing, again, late]])
    expect(routed.moves).toEqual([])
  })

  it('sends an upsert no newer than a removal before it in the batch to the removal’s shard', () => {
    const removal = aMessage('provider.removed', (m) => Object.assign(m, { id: 77, version: 9 }))
    const late = aMessage('provider.upserted', (m) => {
      Object.assign(m, { id: 77, version: 6 })
      m.entity.cityId = atlanta
    })
    const routed = routeMessages(LAYOUTS.two, [removal, late], known)
    expect(routed.shards).toEqual([[], [removal, late]])
    expect(routed.moves).toEqual([])
  })

  it('holds back a second move, or a removal, of a provider the batch moves, and what follows', () => {
    const moved = aMessage('provider.upserted', (m) => {
      Object.assign(m, { id: 77, version: 6 })
      m.entity.cityId = atlanta
    })
    const back = aMessage('provider.upserted', (m) => {
      Object.assign(m, { id: 77, version: 7 })
      m.entity.cityId = seattle
    })
    const removal = aMessage('provider.removed', (m) => Object.assign(m, { id: 77, version: 8 }))
    const listing = aMessage('provider-service.offered', (m) => (m.id = 77))
    const reason = 'provider 77 moves between shards in this batch'
    for (const later of [back, removal]) {
      const routed = routeMessages(LAYOUTS.two, [moved, later, listing], known)
      expect(routed.moves).toEqual([{ id: 77, from: 1, to: 0 }])
      expect(routed.shards).toEqual([[moved], []])
      expect(routed.unplaced).toEqual([
        { message: later, reason },
        { message: listing, reason },
      ])
    }
  })

  it('notes a job whose new city is on another shard as a move', () => {
    const moved = aMessage('job.upserted', (m) => {
      m.id = 88
      m.entity.cityId = atlanta
    })
    const closed = aMessage('job.closed', (m) => {
      m.id = 88
      m.entity.cityId = seattle
    })
    const routed = routeMessages(LAYOUTS.two, [moved, closed], known)
    expect(routed.shards).toEqual([[moved], [closed]])
    // The second, from where the first put it.
    expect(routed.jobMoves).toEqual([
      { id: 88, from: 1, to: 0 },
      { id: 88, from: 0, to: 1 },
    ])
    expect(routed.moves).toEqual([])
  })

  it('routes a job whose city changes within its shard as an ordinary update, and every job on one shard so', () => {
    const seattleJob = aMessage('job.upserted', (m) => {
      m.id = 88
      m.entity.cityId = seattle
    })
    expect(routeMessages(LAYOUTS.two, [seattleJob], known)).toMatchObject({
      shards: [[], [seattleJob]],
      jobMoves: [],
    })
    const atlantaJob = aMessage('job.upserted', (m) => {
      m.id = 88
      m.entity.cityId = atlanta
    })
    const one = { ...known, jobShard: (id: number) => (id === 88 ? 0 : null) }
    expect(routeMessages(LAYOUTS.one, [atlantaJob], one)).toMatchObject({
      shards: [[atlantaJob]],
      jobMoves: [],
    })
  })
})
