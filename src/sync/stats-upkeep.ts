import { BADGES } from '../catalog/enums'
import { JOB_SERVICES } from '../catalog/jobs'
import { SERVICES } from '../catalog/services'
import type { Report } from '../observability/reporter'
import { logProblem } from '../observability/reporter'
import type { Databases } from '../data/databases'
import { controlStatsStatements, shardStatsStatements } from '../data/refresh-stats'
import { shardOutboxStatements } from './outbox'
import { flushOutboxes } from './routed-apply'

// What the cron still does for the stats (docs/data.md, "Derived stats"): the sync consumer keeps
// every stat current as changes arrive, so the cron recomputes only what time changes without a
// message (jobs past their closing moment, activities past their last day) and checks a rotating
// slice of the cities against a recompute. Both are bounded by time and the slice, not by the
// catalog: a run reads the jobs that closed since the last one, the activity days that ended,
// and DRIFT_CITIES cities' listings and jobs, and writes only what differs.

/** Cities checked per run: with the cron every minute, 100 cities a minute, 144,000 a day. */
export const DRIFT_CITIES = 100

/** What a run did: stats recomputed for what time changed, and the slice's drift. */
export interface Upkeep {
  /** Service × city rows of jobs past their closing moment, and keywords past their last day. */
  expired: number
  /** Cities checked against a recompute. */
  checked: number
  /** Service × city rows whose stored stats differed from the recompute (then rewritten). */
  drifted: number
}

/** An instant as the catalog stores it: ISO 8601 in UTC, to the second. */
const instant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

const list = (slugs: readonly string[]) => slugs.map((s) => `'${s}'`).join(', ')
const BACKGROUND_CHECK = 2 ** BADGES.findIndex((b) => b.code === 'BACKGROUND_CHECK')

/** SQL: the slice, the cities after `?1`, at most `?2`. */
const SLICE = 'slice (id) AS (SELECT id FROM cities WHERE id > ?1 ORDER BY id LIMIT ?2)'

/**
 * SQL: the listings' service × city rows of the slice whose service_city_stats differ from a
 * recompute in what pages count (providers, rates, checked, reviewed, reviews), or exist on one
 * side only. Averages are left out: the same rows summed in another order may differ in their
 * last bits, and they move only with the counts and rates compared.
 */
const LISTING_DRIFT = `WITH ${SLICE},
  recomputed AS (
    SELECT ps.service, ps.city_id, COUNT(*), MIN(ps.rate_min), MAX(ps.rate_max),
           SUM(ps.badges & ${BACKGROUND_CHECK} != 0), SUM(p.rating IS NOT NULL), SUM(p.review_count)
      FROM slice JOIN provider_services ps INDEXED BY provider_services_recommended
        ON ps.service IN (${list(SERVICES.map((s) => s.slug))}) AND ps.city_id = slice.id
      JOIN providers p ON p.id = ps.provider_id
     GROUP BY ps.service, ps.city_id),
  stored AS (
    SELECT s.service, s.city_id, s.providers, s.rate_min, s.rate_max, s.checked, s.reviewed,
           s.reviews
      FROM slice JOIN service_city_stats s ON s.city_id = slice.id)
  SELECT 'listing' AS kind, service AS value, city_id FROM (SELECT * FROM recomputed EXCEPT SELECT * FROM stored)
  UNION SELECT 'listing', service, city_id FROM (SELECT * FROM stored EXCEPT SELECT * FROM recomputed)`

/** SQL: the slice's job service × city rows whose open jobs at `?3` differ from job_city_stats. */
const JOB_DRIFT = `WITH ${SLICE},
  recomputed AS (
    SELECT j.service, j.city_id, COUNT(*)
      FROM slice JOIN jobs j INDEXED BY jobs_recommended
        ON j.service IN (${list(JOB_SERVICES.map((j) => j.slug))}) AND j.city_id = slice.id
     WHERE j.valid_through > ?3
     GROUP BY j.service, j.city_id),
  stored AS (SELECT s.service, s.city_id, s.jobs FROM slice JOIN job_city_stats s ON s.city_id = slice.id)
  SELECT 'jobs' AS kind, service AS value, city_id FROM (SELECT * FROM recomputed EXCEPT SELECT * FROM stored)
  UNION SELECT 'jobs', service, city_id FROM (SELECT * FROM stored EXCEPT SELECT * FROM recomputed)`

/** SQL: the slice's last city and size. */
const SLICE_END = `WITH ${SLICE} SELECT MAX(id) AS last, COUNT(*) AS n FROM slice`

interface Touched {
  kind: string
  value: string
  city_id: number
}

/** SQL: the jobs that closed between `?1` and `?2`, touched. */
const EXPIRED_JOBS = `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
  SELECT 'jobs', service, city_id FROM jobs WHERE valid_through > ? AND valid_through <= ?`

/** SQL: the keywords whose last day ended between `?1` and `?2`, touched. */
const ENDED_KEYWORDS = `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
  SELECT 'keyword', keyword, 0 FROM activity_ends WHERE end_date >= ? AND end_date < ?`

/** SQL: the rows of `?1` (JSON of [kind, value, city]) touched. */
const TOUCH = `INSERT OR IGNORE INTO sync_touched (kind, value, city_id)
  SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)`

/**
 * The same run across control and the shards (docs/scale.md): the cursors on control; each
 * shard checks the slice of its own cities (the others have no rows there) and recomputes what
 * expired or drifted, writing the stats rows it touched to its outbox; control applies the
 * outboxes (its copies, the rollups), then the activities whose last day ended.
 */
export async function statsUpkeepRouted(
  databases: Databases,
  now: Date,
  { cities = DRIFT_CITIES, report = logProblem }: { cities?: number; report?: Report } = {},
): Promise<Upkeep> {
  const { control } = databases
  const { results: cursors } = await control
    .prepare('SELECT name, value FROM cron_cursors')
    .all<{ name: string; value: number }>()
  const cursor = Object.fromEntries(cursors.map((c) => [c.name, c.value]))
  const expiredAfter = cursor.expired ?? now.getTime()
  const after = cursor.drift ?? 0
  const at = instant(now.getTime())
  const shards = await Promise.all(
    databases.shards.map(async (db) => {
      const [listings, jobs, end] = await db.batch<Touched & { last: number | null; n: number }>([
        db.prepare(LISTING_DRIFT).bind(after, cities),
        db.prepare(JOB_DRIFT).bind(after, cities, at),
        db.prepare(SLICE_END).bind(after, cities),
      ])
      const drifted = [...(listings?.results ?? []), ...(jobs?.results ?? [])]
      const results = await db.batch([
        db.prepare(EXPIRED_JOBS).bind(instant(expiredAfter), at),
        db.prepare(TOUCH).bind(JSON.stringify(drifted.map((d) => [d.kind, d.value, d.city_id]))),
        ...shardStatsStatements(db, now, 'touched'),
        ...shardOutboxStatements(db, { providers: [], jobs: [] }),
        db.prepare('DELETE FROM sync_touched'),
      ])
      return { drifted, expired: results[0]?.meta.changes ?? 0, slice: end?.results[0] }
    }),
  )
  const drifted = shards.flatMap((s) => s.drifted)
  const slice = shards[0]?.slice
  const next = slice && slice.n === cities ? (slice.last ?? 0) : 0
  if (drifted.length)
    report('cron: stats drifted from a recompute, rewritten', {
      rows: drifted.length,
      first: drifted.slice(0, 5).map((d) => `${d.kind} ${d.value} ${d.city_id}`),
    })
  await flushOutboxes(databases, now)
  const results = await control.batch([
    control.prepare(ENDED_KEYWORDS).bind(instant(expiredAfter).slice(0, 10), at.slice(0, 10)),
    ...controlStatsStatements(control, now, 'touched'),
    control.prepare('DELETE FROM sync_touched'),
    control
      .prepare(
        `INSERT INTO cron_cursors (name, value) VALUES ('expired', ?1), ('drift', ?2)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
      )
      .bind(now.getTime(), next),
  ])
  const expired = shards.reduce((n, s) => n + s.expired, results[0]?.meta.changes ?? 0)
  return { expired, checked: slice?.n ?? 0, drifted: drifted.length }
}
