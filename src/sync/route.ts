// Where each catalog change goes when the catalog spans databases (docs/scale.md, "How sync
// routes a batch"): a city to control and to every shard's copy, a provider or job to the shard
// of its city, a listing or a provider's removal to the provider's shard, an activity to control.
// A review to its provider's shard and, in the sync, as its removal to every other shard (a
// review can change provider, and so shard). A routing table only: it reads nothing, it is told
// where cities, providers and jobs are.
import { citySlug } from '../catalog/cities'
import type { Layout } from '../catalog/placement'
import { shardOfCity } from '../catalog/placement'
import type { CatalogMessage } from './messages'

/** What the router is told: where a city is (by id) and which shard holds a provider or job. */
export interface Whereabouts {
  /** The slug of the city with id `id`, null for a city not known. */
  citySlug(id: number): string | null
  /** The shard holding the provider `id` (the directory's row), null for one on no shard. */
  providerShard(id: number): number | null
  /**
   * The version of the provider `id` the directory names (with its shard), null when unknown:
   * an older message goes to that shard, where it changes nothing, rather than moving the
   * provider back to the city it names. Absent for the import, whose lines come in order.
   */
  providerVersion?(id: number): number | null
  /**
   * The shard holding the job `id` (the directory's row), null for one on no shard. Absent where
   * no job can have moved (the import, which ends by building the directory from the shards).
   */
  jobShard?(id: number): number | null
  /**
   * The shard a removed provider `id` was on and the removal's version (control's tombstone), null
   * when none is known: where a later message about it goes, as that shard's versions decide it.
   * Absent for the import.
   */
  removal?(id: number): { shard: number; version: number } | null
  /**
   * Whether a review may have been written under another provider, on another shard, before
   * this message (the sync's deliveries, in any order): each review then also goes to every
   * other shard as its removal. Absent for the import, whose lines are a snapshot in order.
   */
  reviewsMove?: boolean
}

export interface Routed {
  /** The messages control applies. */
  control: CatalogMessage[]
  /** The messages each shard applies, by shard number. */
  shards: CatalogMessage[][]
  /** A message made for a shard (a review's removal elsewhere), by the message it stands for. */
  sentFor: Map<CatalogMessage, CatalogMessage>
  /** Messages that name a city or provider no database has: retried, as an impossible reference is. */
  unplaced: { message: CatalogMessage; reason: string }[]
  /**
   * Providers whose new city is on another shard than the one holding them: routed to the new
   * one, and to be copied there, switched in the directory, then removed from the old one.
   */
  moves: { id: number; from: number; to: number }[]
  /**
   * Jobs whose new city is on another shard than the one holding them: routed to the new one,
   * which takes the whole job from the message; then switched in the directory and removed from
   * the old one (src/sync/move.ts, `moveJob`).
   */
  jobMoves: { id: number; from: number; to: number }[]
}

/** Where cities, providers and jobs are: what the batch said so far, else what the router is told. */
function batchPlaces(layout: Layout, whereabouts: Whereabouts) {
  const cities = new Map<number, string>()
  const providers = new Map<number, number>()
  const providerVersions = new Map<number, number>()
  /** Removals routed so far in the batch: the shard each went to, and its version. */
  const removals = new Map<number, { shard: number; version: number }>()
  const jobs = new Map<number, number>()
  const cityShard = (id: number) => {
    const slug = cities.get(id) ?? whereabouts.citySlug(id)
    return slug === null ? null : shardOfCity(layout, slug)
  }
  const providerShard = (id: number) => providers.get(id) ?? whereabouts.providerShard(id)
  /** Where a message about provider `id` goes: the shard holding it, else the one it left. */
  const lastShard = (id: number) => providerShard(id) ?? whereabouts.removal?.(id)?.shard ?? null
  /**
   * The shard where a provider's upsert of `version` is older than (or as old as) what is there:
   * the shard of a newer removal earlier in the batch, the shard holding a newer version, or the
   * one it was removed from at a newer version.
   */
  const staleOn = (id: number, version: number): number | null => {
    const removed = removals.get(id)
    if (removed && version <= removed.version) return removed.shard
    const held = providerShard(id)
    if (held !== null) {
      const newest = providerVersions.get(id) ?? whereabouts.providerVersion?.(id) ?? null
      return newest !== null && version <= newest ? held : null
    }
    const removal = whereabouts.removal?.(id) ?? null
    return removal !== null && version <= removal.version ? removal.shard : null
  }
  const jobShard = (id: number) => jobs.get(id) ?? whereabouts.jobShard?.(id) ?? null
  return {
    cities,
    providers,
    providerVersions,
    removals,
    jobs,
    cityShard,
    providerShard,
    lastShard,
    staleOn,
    jobShard,
  }
}

/** Where nothing is routed yet, on `shards` shards. */
function nothingRouted(shards: number): Routed {
  const none = () => []
  return {
    control: [],
    shards: Array.from({ length: shards }, none),
    sentFor: new Map(),
    unplaced: [],
    moves: [],
    jobMoves: [],
  }
}

/**
 * Provider or job `id`, held on shard `from`, now on `to` (its new city's shard): learnt for the
 * rest of the batch, and a move when it changes shard.
 */
function placed(
  moves: Routed['moves'],
  learnt: Map<number, number>,
  id: number,
  from: number | null,
  to: number | null,
): void {
  if (to === null) return
  if (from !== null && from !== to) moves.push({ id, from, to })
  learnt.set(id, to)
}

type Places = ReturnType<typeof batchPlaces>
type ToShard = (message: CatalogMessage, shard: number | null, what: string) => void

/**
 * A batch's provider upserts and removals. An upsert older than what a shard holds goes there,
 * where its version makes it a no-op, rather than moving the provider to the city it names (a
 * late delivery from before a move). A provider moving between shards in this batch has a second
 * move of it, its removal and what follows them wait for the next delivery, when the directory
 * names where the move put it.
 */
function providerRouting(routed: Routed, places: Places, toShard: ToShard) {
  const moving = new Set<number>()
  const deferred = new Set<number>()
  const defer = (message: CatalogMessage, id: number) => {
    deferred.add(id)
    routed.unplaced.push({ message, reason: `provider ${id} moves between shards in this batch` })
  }
  return {
    /** Whether `message` waits, as an earlier message of its provider in the batch did. */
    waits(message: CatalogMessage): boolean {
      if (!message.kind.startsWith('provider') && message.kind !== 'review.added') return false
      const id = message.kind === 'review.added' ? message.entity.providerId : message.id
      if (!deferred.has(id)) return false
      defer(message, id)
      return true
    },
    upsert(message: Extract<CatalogMessage, { kind: 'provider.upserted' }>): void {
      const stale = places.staleOn(message.id, message.version)
      if (stale !== null) {
        routed.shards[stale]?.push(message)
        return
      }
      const shard = places.cityShard(message.entity.cityId)
      const held = places.providerShard(message.id)
      if (moving.has(message.id) && shard !== null && shard !== held) {
        defer(message, message.id)
        return
      }
      if (shard !== null && held !== null && shard !== held) moving.add(message.id)
      placed(routed.moves, places.providers, message.id, held, shard)
      if (shard !== null) places.providerVersions.set(message.id, message.version)
      toShard(message, shard, `city ${message.entity.cityId}`)
    },
    removal(message: Extract<CatalogMessage, { kind: 'provider.removed' }>): void {
      if (moving.has(message.id)) {
        defer(message, message.id)
        return
      }
      const shard = places.lastShard(message.id)
      // A later upsert no newer than it goes where its tombstone makes it a no-op (`staleOn`).
      if (shard !== null) places.removals.set(message.id, { shard, version: message.version })
      toShard(message, shard, `provider ${message.id}`)
    },
  }
}

/**
 * A review to its provider's shard; where reviews may move (the sync), every other shard takes it
 * as the review's removal at its version: a shard holding it under the provider it was of drops
 * it, and an older version arriving later is a no-op wherever it is routed.
 */
function routeReview(
  routed: Routed,
  places: Places,
  toShard: ToShard,
  message: Extract<CatalogMessage, { kind: 'review.added' }>,
  reviewsMove: boolean,
): void {
  const shard = places.lastShard(message.entity.providerId)
  toShard(message, shard, `provider ${message.entity.providerId}`)
  if (shard === null || !reviewsMove) return
  const elsewhere = { kind: 'review.removed', id: message.id, version: message.version } as const
  routed.sentFor.set(elsewhere, message)
  routed.shards.forEach((part, other) => other !== shard && part.push(elsewhere))
}

/**
 * `messages` split by database. Within a batch a city or provider arriving with the messages that
 * refer to it counts as known: the router learns from the batch in its order, as the database
 * applies it. A review's removal names only the review, so it goes to every shard (rare, and a
 * removal of what a shard does not hold writes only its tombstone there).
 */
export function routeMessages(
  layout: Layout,
  messages: readonly CatalogMessage[],
  whereabouts: Whereabouts,
): Routed {
  const routed = nothingRouted(layout.shards)
  const places = batchPlaces(layout, whereabouts)
  const { cities, jobs, cityShard, lastShard, jobShard } = places
  const toShard: ToShard = (message, shard, what) => {
    if (shard === null) routed.unplaced.push({ message, reason: `${what} is on no shard` })
    else routed.shards[shard]?.push(message)
  }
  const providers = providerRouting(routed, places, toShard)
  for (const message of messages) {
    if (providers.waits(message)) continue
    switch (message.kind) {
      case 'city.added':
        cities.set(message.id, citySlug(message.entity.name, message.entity.stateCode))
        routed.control.push(message)
        for (const shard of routed.shards) shard.push(message)
        break
      case 'provider.upserted':
        providers.upsert(message)
        break
      case 'provider.removed':
        providers.removal(message)
        break
      case 'provider-service.offered':
      case 'provider-service.withdrawn':
        toShard(message, lastShard(message.id), `provider ${message.id}`)
        break
      case 'review.added':
        routeReview(routed, places, toShard, message, whereabouts.reviewsMove === true)
        break
      case 'review.removed':
        for (const shard of routed.shards) shard.push(message)
        break
      case 'job.upserted':
      case 'job.closed': {
        const shard = cityShard(message.entity.cityId)
        placed(routed.jobMoves, jobs, message.id, jobShard(message.id), shard)
        toShard(message, shard, `city ${message.entity.cityId}`)
        break
      }
      case 'activity.upserted':
      case 'activity.removed':
        routed.control.push(message)
        break
    }
  }
  return routed
}
