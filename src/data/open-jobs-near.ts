import { JOB_SERVICES } from '../catalog/jobs'
import type { Db } from './db'
import type { Job, JobCard } from './jobs'
import { findNearbyOpenJobs, findOpenJobs } from './jobs'

/**
 * What a closed job's page offers instead, up to `limit`: open jobs of its family in its city,
 * then of its family in the cities around, then of the city's other families, then of those
 * around. A later step is read only when the earlier ones found too few, so the page points to
 * open jobs whenever any are near, at one read when its own listing has enough.
 */
export async function findOpenJobsNear(
  db: Db,
  job: Pick<Job, 'id' | 'service' | 'cityId' | 'lat' | 'lng'>,
  now: Date,
  limit: number,
): Promise<JobCard[]> {
  const others = JOB_SERVICES.map((j) => j.slug).filter((slug) => slug !== job.service)
  const around = { id: job.cityId, lat: job.lat, lng: job.lng }
  const steps = [
    (n: number) =>
      findOpenJobs(db, [job.service], job.cityId, now, { excludeId: job.id, limit: n }),
    (n: number) => findNearbyOpenJobs(db, around, [job.service], now, { limit: n }),
    (n: number) => findOpenJobs(db, others, job.cityId, now, { limit: n }),
    (n: number) => findNearbyOpenJobs(db, around, others, now, { limit: n }),
  ]
  const found: JobCard[] = []
  for (const step of steps) {
    if (found.length >= limit) break
    found.push(...(await step(limit - found.length)))
  }
  return found
}
