import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'
import type { FlagSet } from './flag-set'
import { DEFAULT_FLAG_SET, parseFlagSet } from './flag-set'
import { FLAGS_KEY } from './schema'

/** How long an isolate keeps the flag set; with KV's own 30 s edge cache, a change shows
 * within a minute. */
export const FLAGS_MAX_AGE_MS = 20_000
/** After a failed read, how long the defaults stand before KV is asked again. */
const RETRY_AFTER_MS = 5_000

let cached: { set: FlagSet; until: number } | null = null
let loading: Promise<FlagSet> | null = null

/**
 * The flag set of this isolate: at most one KV read per FLAGS_MAX_AGE_MS however many pages
 * are served. A malformed document or a KV failure gives the documented defaults and one
 * report, never a failed page.
 */
export function readFlags(kv: KVNamespace, report: Report = logProblem): Promise<FlagSet> {
  if (cached && Date.now() < cached.until) return Promise.resolve(cached.set)
  loading ??= load(kv, report).finally(() => {
    loading = null
  })
  return loading
}

async function load(kv: KVNamespace, report: Report): Promise<FlagSet> {
  try {
    const text = await kv.get(FLAGS_KEY, { cacheTtl: 30 })
    const set = text === null ? DEFAULT_FLAG_SET : parseFlagSet(parseJson(text))
    if (set.problems.length)
      report('flags: invalid entries, documented defaults used', { problems: set.problems })
    cached = { set, until: Date.now() + FLAGS_MAX_AGE_MS }
    return set
  } catch (error) {
    report('flags: store unreadable, documented defaults used', { error: String(error) })
    cached = { set: DEFAULT_FLAG_SET, until: Date.now() + RETRY_AFTER_MS }
    return DEFAULT_FLAG_SET
  }
}

/** Forgets this isolate's copy (tests, after changing the store). */
export function forgetFlags(): void {
  cached = null
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    // Not JSON: parseFlagSet reports it as a malformed document.
    return text
  }
}
