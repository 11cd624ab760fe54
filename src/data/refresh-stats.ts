import { EXPERIENCE_BANDS } from '../catalog/cost-guides'

// The band of a provider's years of experience, as SQL: 0 for the first of EXPERIENCE_BANDS…
const BAND = `CASE ${EXPERIENCE_BANDS.map((b, i) => `WHEN years_experience <= ${b.max} THEN ${i}`).join(' ')} END`

/**
 * Recomputes service_city_stats and rate_experience_stats from provider_services,
 * job_city_stats from the jobs open at `now` and activity_stats from the activities not yet
 * ended, in one transaction. `npm run seed` runs it after loading; in production the cron trigger
 * runs it (src/worker.ts), so hub counts and rate figures always come from the catalog's real
 * rates, never typed in. Their updated_at is when the data last changed (the newest provider
 * update, the newest job posting): pages' Last-Modified and sitemaps' lastmod. Activities carry
 * no date of change, so activity_stats has the refresh time.
 */
export async function refreshStats(d1: D1Database, now: Date): Promise<void> {
  const at = now.toISOString()
  await d1.batch([
    d1.prepare('DELETE FROM service_city_stats'),
    d1.prepare(
      `INSERT INTO service_city_stats
           (service, city_id, state_code, providers, rate_avg, rate_min, rate_max, pay_unit, updated_at)
         SELECT ps.service, ps.city_id, c.state_code, COUNT(*),
                AVG((ps.rate_min + ps.rate_max) / 2.0), MIN(ps.rate_min), MAX(ps.rate_max),
                MIN(ps.pay_unit), MAX(p.updated_at)
           FROM provider_services ps JOIN cities c ON c.id = ps.city_id
           JOIN providers p ON p.id = ps.provider_id
          GROUP BY ps.service, ps.city_id`,
    ),
    d1.prepare('DELETE FROM job_city_stats'),
    d1
      .prepare(
        `INSERT INTO job_city_stats (service, city_id, state_code, jobs, pay_avg, updated_at)
         SELECT j.service, j.city_id, c.state_code, COUNT(*),
                AVG(CASE WHEN j.pay_unit = 'hr' THEN (j.pay_min + j.pay_max) / 2.0 END),
                MAX(j.posted_at)
           FROM jobs j JOIN cities c ON c.id = j.city_id
          WHERE j.valid_through > ?
          GROUP BY j.service, j.city_id`,
      )
      .bind(at.replace(/\.\d{3}Z$/, 'Z')),
    d1.prepare('DELETE FROM rate_experience_stats'),
    d1.prepare(
      `INSERT INTO rate_experience_stats (service, city_id, band, providers, rate_avg)
       SELECT service, city_id, ${BAND}, COUNT(*), AVG((rate_min + rate_max) / 2.0)
         FROM provider_services GROUP BY service, city_id, 3`,
    ),
    d1.prepare(
      `INSERT INTO rate_experience_stats (service, city_id, band, providers, rate_avg)
       SELECT service, 0, ${BAND}, COUNT(*), AVG((rate_min + rate_max) / 2.0)
         FROM provider_services GROUP BY service, 3`,
    ),
    d1.prepare('DELETE FROM activity_stats'),
    ...(['category', 'subcategory'] as const).map((column) =>
      d1
        .prepare(
          `INSERT INTO activity_stats (keyword, activities, updated_at)
           SELECT ${column}, COUNT(*), ? FROM activities
            WHERE ${column} IS NOT NULL AND (end_date IS NULL OR end_date >= ?)
            GROUP BY ${column}`,
        )
        .bind(at, at.slice(0, 10)),
    ),
  ])
}
