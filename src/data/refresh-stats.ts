/**
 * Recomputes service_city_stats from provider_services, and job_city_stats from the jobs open
 * at `now`, in one transaction. The seed runs it after loading; in production the cron trigger
 * runs it (src/worker.ts), so hub counts and rate figures always come from the catalog's real
 * rates, never typed in.
 */
export async function refreshStats(d1: D1Database, now: Date): Promise<void> {
  const at = now.toISOString()
  await d1.batch([
    d1.prepare('DELETE FROM service_city_stats'),
    d1
      .prepare(
        `INSERT INTO service_city_stats
           (service, city_id, state_code, providers, rate_avg, rate_min, rate_max, pay_unit, updated_at)
         SELECT ps.service, ps.city_id, c.state_code, COUNT(*),
                AVG((ps.rate_min + ps.rate_max) / 2.0), MIN(ps.rate_min), MAX(ps.rate_max),
                MIN(ps.pay_unit), ?
           FROM provider_services ps JOIN cities c ON c.id = ps.city_id
          GROUP BY ps.service, ps.city_id`,
      )
      .bind(at),
    d1.prepare('DELETE FROM job_city_stats'),
    d1
      .prepare(
        `INSERT INTO job_city_stats (service, city_id, state_code, jobs, pay_avg, updated_at)
         SELECT j.service, j.city_id, c.state_code, COUNT(*),
                AVG(CASE WHEN j.pay_unit = 'hr' THEN (j.pay_min + j.pay_max) / 2.0 END), ?
           FROM jobs j JOIN cities c ON c.id = j.city_id
          WHERE j.valid_through > ?
          GROUP BY j.service, j.city_id`,
      )
      .bind(at, at.replace(/\.\d{3}Z$/, 'Z')),
  ])
}
