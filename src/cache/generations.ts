import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'

/**
 * Purges are generations: purging a tag records the moment in one KV document, which reaches
 * every data centre, and a cached page stored before the newest generation of any of its tags
 * is no longer served as fresh. Nothing is deleted, so a purged page can still be served STALE
 * if rendering fails.
 */
export const GENERATIONS_KEY = 'generations'

/** A page lives at most this long in the cache; older generations can be forgotten. */
export const MAX_ENTRY_LIFETIME_MS = 8 * 86_400_000

/** How long an isolate trusts its copy: with KV's own edge cache, a purge shows within a minute. */
const MAX_AGE_MS = 10_000

export type Generations = Record<string, number>

let cached: { generations: Generations; until: number } | null = null

export async function readGenerations(
  kv: KVNamespace,
  report: Report = logProblem,
): Promise<Generations> {
  if (cached && Date.now() < cached.until) return cached.generations
  let generations: Generations = {}
  try {
    generations = (await kv.get<Generations>(GENERATIONS_KEY, 'json')) ?? {}
  } catch (error) {
    // Unreadable: no purge is known, pages are served by age alone until the next read.
    report('cache: purge generations unreadable', { error: String(error) })
  }
  cached = { generations, until: Date.now() + MAX_AGE_MS }
  return generations
}

/** The newest purge of any of `tags`, 0 when none was ever purged. */
export function newestGeneration(generations: Generations, tags: readonly string[]): number {
  return tags.reduce((max, tag) => Math.max(max, generations[tag] ?? 0), 0)
}

/** Records a purge of `tags` at `at`, forgetting generations older than any cached page. */
export async function bumpGenerations(
  kv: KVNamespace,
  tags: readonly string[],
  at: number,
): Promise<void> {
  const current = (await kv.get<Generations>(GENERATIONS_KEY, 'json')) ?? {}
  const next: Generations = {}
  for (const [tag, gen] of Object.entries(current))
    if (at - gen < MAX_ENTRY_LIFETIME_MS) next[tag] = gen
  for (const tag of tags) next[tag] = at
  await kv.put(GENERATIONS_KEY, JSON.stringify(next))
  // This isolate sees its own purge at once.
  cached = { generations: next, until: Date.now() + MAX_AGE_MS }
}

export function forgetGenerations(): void {
  cached = null
}
