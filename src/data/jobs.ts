import type { PayUnit } from '../catalog/enums'
import { PAGE_SIZE } from '../catalog/filters'
import type { JobSchedule, JobType } from '../catalog/jobs'
import type { JobQuery } from '../queries/job-query'
import type { City, CityOf } from './cities'
import { box, MILES_PER_DEGREE, milesPerLngDegree } from '../lib/geo'
import { cityIdOf } from './cities'
import type { Db, Param } from './db'

/** What a job card shows. */
export interface JobCard {
  id: number
  titleSlug: string
  title: string
  /** A business's name; null for a family, whose name no page may show. */
  employer: string | null
  jobType: JobType
  payMin: number
  payMax: number
  payUnit: PayUnit
  schedule: JobSchedule
  hoursPerWeek: number | null
  startDate: string
  postedAt: string
  /** When the job closes (then its page answers 410). */
  validThrough: string
  cityName: string
  stateCode: string
}

/** A job's detail page. */
export interface Job extends JobCard {
  service: string
  description: string
  children: number
  ages: number
  requirements: number
  validThrough: string
  cityId: number
  citySlug: string
  /** Where the job is. */
  lat: number
  lng: number
}

// A family's name never leaves D1, so no page, card, JSON-LD or data twin can show it.
const CARD_COLUMNS = `j.id, j.title_slug AS titleSlug, j.title,
  CASE j.job_type WHEN 'SMB_JOB' THEN j.employer END AS employer, j.job_type AS jobType,
  j.pay_min AS payMin, j.pay_max AS payMax, j.pay_unit AS payUnit, j.schedule,
  j.hours_per_week AS hoursPerWeek, j.start_date AS startDate, j.posted_at AS postedAt,
  j.valid_through AS validThrough, c.name AS cityName, c.state_code AS stateCode`

/**
 * Jobs' closing moments are stored to the second ("…:36Z"); `now` in the same form compares
 * as text, and a job is open while valid_through > now.
 */
export function instant(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export function findJob(db: Db, id: number): Promise<Job | null> {
  return db.first<Job>(
    `SELECT ${CARD_COLUMNS}, j.service, j.description, j.children, j.ages, j.requirements,
            j.valid_through AS validThrough, j.city_id AS cityId, c.slug AS citySlug, j.lat, j.lng
       FROM jobs j JOIN cities c ON c.id = j.city_id WHERE j.id = ?`,
    id,
  )
}

export function isExpired(job: Pick<Job, 'validThrough'>, now: Date): boolean {
  return job.validThrough <= instant(now)
}

/** The WHERE clause of a job listing: open jobs of the (service, city) index range, filtered. */
export function jobWhere(
  service: string,
  cityId: number,
  q: JobQuery,
  now: Date,
): [string, Param[]] {
  const where = ['j.service = ?', 'j.city_id = ?', 'j.valid_through > ?']
  const params: Param[] = [service, cityId, instant(now)]
  if (q.schedule) {
    where.push('j.schedule = ?')
    params.push(q.schedule)
  }
  if (q.jobType) {
    where.push('j.job_type = ?')
    params.push(q.jobType)
  }
  if (q.rate) {
    // Pay bands are hourly: a weekly or per-visit pay never matches one.
    where.push("j.pay_unit = 'hr' AND j.pay_min <= ? AND j.pay_max >= ?")
    params.push(q.rate.high, q.rate.low)
  }
  if (q.hours) {
    where.push('j.hours_per_week >= ?')
    params.push(q.hours.from)
    if (q.hours.below !== null) {
      where.push('j.hours_per_week < ?')
      params.push(q.hours.below)
    }
  }
  if (q.ages) {
    where.push('(j.ages & ?) = ?')
    params.push(q.ages, q.ages)
  }
  return [where.join(' AND '), params]
}

const ORDER: Record<JobQuery['sort'], { index: string; by: string }> = {
  recommended: { index: 'jobs_recommended', by: 'j.rank_score DESC, j.id' },
  newest: { index: 'jobs_newest', by: 'j.posted_at DESC, j.id' },
}

export async function findJobListing(
  db: Db,
  service: string,
  city: City,
  q: JobQuery,
  now: Date,
): Promise<{ total: number; cards: JobCard[] }> {
  const [where, params] = jobWhere(service, city.id, q, now)
  const order = ORDER[q.sort]
  const [count, cards] = await Promise.all([
    db.first<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs j WHERE ${where}`, ...params),
    db.all<JobCard>(
      `SELECT ${CARD_COLUMNS} FROM jobs j INDEXED BY ${order.index} JOIN cities c ON c.id = j.city_id
        WHERE ${where} ORDER BY ${order.by} LIMIT ? OFFSET ?`,
      ...params,
      PAGE_SIZE,
      (q.page - 1) * PAGE_SIZE,
    ),
  ])
  return { total: count?.n ?? 0, cards }
}

/** Open jobs of any of `services` in one city, newest first, other than `excludeId`. */
export function findOpenJobs(
  db: Db,
  services: readonly string[],
  cityId: number,
  now: Date,
  { excludeId = 0, limit = 4 } = {},
): Promise<JobCard[]> {
  if (!services.length) return Promise.resolve([])
  return db.all<JobCard>(
    `SELECT ${CARD_COLUMNS} FROM jobs j INDEXED BY jobs_newest JOIN cities c ON c.id = j.city_id
      WHERE j.service IN (${services.map(() => '?').join(', ')}) AND j.city_id = ?
        AND j.valid_through > ? AND j.id != ?
      ORDER BY j.posted_at DESC, j.id LIMIT ?`,
    ...services,
    cityId,
    instant(now),
    excludeId,
    limit,
  )
}

/**
 * Open jobs of any of `services` in the other cities within `radiusMiles` of `city`, nearest
 * city first, then newest: the cities' latitude band, then each city's jobs by the (service,
 * city) index. Distances are equirectangular, which at this range is within a fraction of a mile.
 */
export function findNearbyOpenJobs(
  db: Db,
  city: Pick<City, 'id' | 'lat' | 'lng'>,
  services: readonly string[],
  now: Date,
  { radiusMiles = 60, limit = 4 } = {},
): Promise<JobCard[]> {
  if (!services.length) return Promise.resolve([])
  const milesPerLng = milesPerLngDegree(city.lat)
  return db.all<JobCard>(
    `SELECT ${CARD_COLUMNS} FROM (
       SELECT id, name, state_code,
              ((lat - ?) * ?) * ((lat - ?) * ?) + ((lng - ?) * ?) * ((lng - ?) * ?) AS d2
         FROM cities WHERE lat BETWEEN ? AND ? AND lng BETWEEN ? AND ? AND id != ?) c
       CROSS JOIN jobs j INDEXED BY jobs_newest
         ON j.service IN (${services.map(() => '?').join(', ')}) AND j.city_id = c.id
      WHERE c.d2 <= ? AND j.valid_through > ?
      ORDER BY c.d2, j.posted_at DESC, j.id LIMIT ?`,
    city.lat,
    MILES_PER_DEGREE,
    city.lat,
    MILES_PER_DEGREE,
    city.lng,
    milesPerLng,
    city.lng,
    milesPerLng,
    ...box(city, radiusMiles),
    city.id,
    ...services,
    radiusMiles * radiusMiles,
    instant(now),
    limit,
  )
}

export interface JobCount {
  service: string
  jobs: number
  payAvg: number | null
  /** The newest posting among them. */
  updatedAt: string
}

export function findCityJobCounts(db: Db, city: CityOf): Promise<JobCount[]> {
  const [id, param] = cityIdOf(city)
  return db.all<JobCount>(
    `SELECT service, jobs, pay_avg AS payAvg, updated_at AS updatedAt FROM job_city_stats WHERE city_id = ${id}`,
    param,
  )
}
