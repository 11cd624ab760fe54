import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'
import type { FlagSet } from './flag-set'
import { DEFAULT_FLAG_SET, parseFlagSet } from './flag-set'
import { FLAGS_KEY } from './schema'
import type { Load, WaitUntil } from '../lib/kept'
import { Kept, LATE } from '../lib/kept'

/** How long an isolate keeps the flag set; with KV's own 30 s edge cache, a change shows
 * within a minute. */
export const FLAGS_MAX_AGE_MS = 20_000
/**
 * How long a request waits for the flag set from KV. Past it, the request is served with the
 * last set read (the documented defaults on an isolate that has none yet) while the read runs
 * on in the background and is kept when it ends.
 */
export const FLAGS_DEADLINE_MS = 100
/** A read of the flag set still running after this long has failed: the retry delay follows. */
export const FLAGS_GIVE_UP_MS = 10_000
/** After a failed read, how long what stands in is kept before KV is asked again. */
const RETRY_AFTER_MS = 5_000

/** An isolate's copy of the flag set (src/memory.ts). */
export const keptFlags = (): Kept<FlagSet> =>
  new Kept({ maxAgeMs: FLAGS_MAX_AGE_MS, retryAfterMs: RETRY_AFTER_MS })

/**
 * The flag set of an isolate, kept in `kept`: at most one KV read per FLAGS_MAX_AGE_MS however
 * many pages are served. A KV failure or a malformed document keeps the last good set for the
 * retry delay (the documented defaults if none was ever read), with one report: never a failed
 * page, and never a flip of every variant or of a kill switch ops turned off. A read slower than
 * FLAGS_DEADLINE_MS is not waited for: the last set (or the defaults) serves this request, and
 * the read, once it ends, is kept for the next (`waitUntil`).
 */
export async function readFlags(
  kept: Kept<FlagSet>,
  kv: KVNamespace,
  waitUntil: WaitUntil,
  report: Report = logProblem,
): Promise<FlagSet> {
  const set = await kept.getWithin(load(kv, report), {
    ms: FLAGS_DEADLINE_MS,
    waitUntil,
    onLate: () =>
      report(
        kept.value
          ? `flags: store slower than ${FLAGS_DEADLINE_MS} ms, last set kept meanwhile`
          : `flags: store slower than ${FLAGS_DEADLINE_MS} ms, documented defaults used meanwhile`,
      ),
  })
  return set === LATE ? (kept.value ?? DEFAULT_FLAG_SET) : set
}

function load(kv: KVNamespace, report: Report): Load<FlagSet> {
  return {
    read: () => fetchFlags(kv, report),
    giveUpMs: FLAGS_GIVE_UP_MS,
    recover: (error, previous) => {
      report(
        previous
          ? 'flags: store unreadable, last good set kept'
          : 'flags: store unreadable, documented defaults used',
        { error: String(error) },
      )
      return previous ?? DEFAULT_FLAG_SET
    },
  }
}

async function fetchFlags(kv: KVNamespace, report: Report): Promise<FlagSet> {
  const text = await kv.get(FLAGS_KEY, { cacheTtl: 30 })
  const set = text === null ? DEFAULT_FLAG_SET : parseFlagSet(parseJson(text))
  // Reported once, by `recover`, which keeps what was read before.
  if (set.malformed) throw new Error(set.problems.join('; '))
  if (set.problems.length)
    report('flags: invalid entries, documented defaults used', { problems: set.problems })
  return set
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    // Not JSON: parseFlagSet reports it as a malformed document.
    return text
  }
}
