import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'
import { Kept } from '../request/kept'
import { POLICIES } from './policies'

/**
 * Purges are generations: a cached page stored before the newest purge of any of its tags is
 * never served again, fresh or stale, not even when rendering fails (a purge is a removal).
 *
 * Each purge is its own KV key (`purge/…`), its time and tags in the key's metadata, written
 * once and never rewritten: KV is last-write-wins and eventually consistent, so a shared
 * document read, changed and written back by two purges at once would lose one of them. Keys
 * expire on their own once no page stored before them can still be in the cache.
 */
export const PURGE_PREFIX = 'purge/'

/** The longest a page stays in the cache: fresh, then kept for stale-if-error. */
const LONGEST_KEEP_S = Math.max(...Object.values(POLICIES).map((p) => p.sMaxage + p.staleIfError))
/** A purge is remembered a day longer than any page it could concern. */
export const PURGE_TTL_S = LONGEST_KEEP_S + 86_400

/** KV metadata is at most 1,024 bytes: a purge of more tags is written as several keys. */
const MAX_METADATA_BYTES = 1024
/** A tag too long to share a key's metadata with anything is refused by the purge endpoint. */
export const MAX_TAG_BYTES = 900

/** How long an isolate trusts its copy: with KV's own edge cache, a purge shows within a minute. */
const MAX_AGE_MS = 10_000

export type Generations = Record<string, number>

interface PurgeMeta {
  at: number
  tags: string[]
}

/** How long this isolate adds its own purges to what KV lists (KV shows them within a minute). */
const OWN_PURGES_MS = 120_000

/**
 * What an isolate knows of purges (src/request/memory.ts): the generations KV last listed, and
 * the purges it recorded itself.
 */
export class KnownPurges {
  readonly listed = new Kept<Generations>({ maxAgeMs: MAX_AGE_MS })
  own: PurgeMeta[] = []
}

/** The newest purge time of every tag purged within PURGE_TTL_S, read every 10 s per isolate. */
export function readGenerations(
  known: KnownPurges,
  kv: KVNamespace,
  report: Report = logProblem,
): Promise<Generations> {
  return known.listed.get({
    read: async () => withOwn(known, await listGenerations(kv)),
    // Unreadable: the purges known so far stand, pages are served by age until the next read.
    recover: (error, previous) => {
      report('cache: purge generations unreadable', { error: String(error) })
      return withOwn(known, { ...previous })
    },
  })
}

async function listGenerations(kv: KVNamespace): Promise<Generations> {
  const generations: Generations = {}
  let cursor: string | undefined
  do {
    const page: KVNamespaceListResult<PurgeMeta> = await kv.list<PurgeMeta>({
      prefix: PURGE_PREFIX,
      cursor,
    })
    for (const key of page.keys) if (isPurge(key.metadata)) merge(generations, key.metadata)
    cursor = page.list_complete ? undefined : page.cursor
  } while (cursor)
  return generations
}

/** This isolate's own purges count at once: KV's list may take a minute to show them. */
function withOwn(known: KnownPurges, generations: Generations): Generations {
  const now = Date.now()
  known.own = known.own.filter((p) => now - p.at < OWN_PURGES_MS)
  for (const purge of known.own) merge(generations, purge)
  return generations
}

/** The newest purge of any of `tags`, 0 when none was ever purged. */
export function newestGeneration(generations: Generations, tags: readonly string[]): number {
  return tags.reduce((max, tag) => Math.max(max, generations[tag] ?? 0), 0)
}

/** Records a purge of `tags` at `at`: new keys only, so no purge can overwrite another. */
export async function recordPurge(
  known: KnownPurges,
  kv: KVNamespace,
  tags: readonly string[],
  at: number,
): Promise<void> {
  const id = crypto.randomUUID()
  const writes = purgeRecords(tags, at).map((meta, i) =>
    kv.put(`${PURGE_PREFIX}${at.toString(36).padStart(9, '0')}-${id}-${i}`, '', {
      metadata: meta,
      expirationTtl: PURGE_TTL_S,
    }),
  )
  await Promise.all(writes)
  // This isolate sees its own purge at once.
  const purge = { at, tags: [...tags] }
  known.own.push(purge)
  const listed = known.listed.value
  if (listed) merge(listed, purge)
}

/** The metadata of a purge's keys: its tags, packed so each fits KV's metadata limit. */
export function purgeRecords(tags: readonly string[], at: number): PurgeMeta[] {
  const records: PurgeMeta[] = []
  let current: PurgeMeta = { at, tags: [] }
  for (const tag of tags) {
    const grown = { at, tags: [...current.tags, tag] }
    if (current.tags.length && bytes(grown) > MAX_METADATA_BYTES) {
      records.push(current)
      current = { at, tags: [tag] }
    } else current = grown
  }
  if (current.tags.length) records.push(current)
  return records
}

function merge(generations: Generations, { at, tags }: PurgeMeta): void {
  for (const tag of tags) generations[tag] = Math.max(generations[tag] ?? 0, at)
}

function isPurge(meta: unknown): meta is PurgeMeta {
  if (typeof meta !== 'object' || meta === null) return false
  const { at, tags } = meta as Partial<PurgeMeta>
  return typeof at === 'number' && Array.isArray(tags) && tags.every((t) => typeof t === 'string')
}

function bytes(meta: PurgeMeta): number {
  return new TextEncoder().encode(JSON.stringify(meta)).byteLength
}
