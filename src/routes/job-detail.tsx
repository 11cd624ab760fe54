import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { PAGE_IDS } from '../catalog/enums'
import { JOB_REQUIREMENTS, findJobService } from '../catalog/jobs'
import type { Job } from '../data/jobs'
import { findCityJobCounts, findJob, findOpenJobs, isExpired } from '../data/jobs'
import { findOpenJobsNear } from '../data/open-jobs-near'
import { findCityServices } from '../data/service-stats'
import type { Db } from '../data/db'
import type { AppEnv } from '../env'
import { jobPosting } from '../seo/entity-json-ld'
import { absoluteUrl, pageHead, SITE_NAME } from '../seo/head'
import type { IndexDecision } from '../seo/indexability'
import { decideIndexing, worthListing } from '../seo/indexability'
import type { JobDetailPageProps } from '../views/jobs/job-detail-page'
import { jobView } from '../views/jobs/job-detail-page'
import { rateRange } from '../views/parts/format'
import { cityHubPath, entityId, jobListingPath, jobPath, jobSlug } from '../urls/paths'
import { hubDecision } from '../seo/indexability'
import { renderDocument } from './render-document'
import { jobCard } from '../views/jobs/job-card'
import type { CardModel } from '../views/listing/listing-state'
import { entityRedirect } from '../cache/entity-redirect'
import { TAG } from '../cache/tags'

const PRIVATE_FAMILY = 'Private family'

const EMPLOYMENT_TYPE = {
  FULL_TIME: 'FULL_TIME',
  PART_TIME: 'PART_TIME',
  ONE_TIME: 'TEMPORARY',
  RECURRING: 'PART_TIME',
}

/**
 * `/job/{title-slug}-{id}`: a job (seoJobDetail, page id 1061). From the moment its
 * validThrough passes it answers 410, with open jobs nearby and no JSON-LD.
 */
export async function jobDetailPage(c: Context<AppEnv>): Promise<Response> {
  const slug = c.req.param('slug') ?? ''
  const loaded = await loadJob(c, slug)
  const { job, jobs } = loaded
  const path = jobPath(job)
  if (slug !== jobSlug(job)) return entityRedirect(c, path, [TAG.job(job.id)])
  const now = new Date()
  const expired = isExpired(job, now)
  const decision = decideIndexing({ expired })
  const props = describeJob(c, loaded, { path, now, expired, decision })
  return renderDocument(c, jobView(props), {
    decision,
    status: expired ? 410 : 200,
    analytics: { pageId: PAGE_IDS.job, service: job.service, city: job.citySlug },
    // The job service's tag and its provider service's, as on the job listing.
    tags: [
      TAG.job(job.id),
      TAG.city(job.citySlug),
      TAG.service(job.service),
      TAG.service(jobs.service.slug),
    ],
    lastModified: job.postedAt,
    // An open job is served from cache no longer than until it closes (then: 410).
    headers: expired ? {} : { expires: new Date(job.validThrough).toUTCString() },
  })
}

type LoadedJob = Awaited<ReturnType<typeof loadJob>>

/**
 * The job and its city's counts at once, the city named through the job: one round trip to the
 * job's shard, after control's directory has named it (docs/scale.md).
 */
async function loadJob(c: Context<AppEnv>, slug: string) {
  const id = entityId(slug)
  if (id === null) throw new HTTPException(404)
  const placed = await c.get('shards').ofJob(id)
  if (!placed) throw new HTTPException(404)
  const { db } = placed
  const [job, services, jobCounts] = await Promise.all([
    findJob(db, id),
    findCityServices(db, { job: id }),
    findCityJobCounts(db, { job: id }),
  ])
  const jobs = job && findJobService(job.service)
  if (!job || !jobs) throw new HTTPException(404)
  return { job, jobs, services, jobCounts }
}

/** The job page's view: its head, trail, listing link and the jobs streamed after the shell. */
function describeJob(
  c: Context<AppEnv>,
  { job, jobs, services, jobCounts }: LoadedJob,
  page: {
    path: string
    now: Date
    expired: boolean
    decision: IndexDecision
  },
): JobDetailPageProps {
  const { path, now, expired, decision } = page
  // Other jobs of its city, or near it: its shard's (not a neighbour's on another shard).
  const db = c.get('shards').ofCity(job.citySlug)
  const origin = c.env.PUBLIC_ORIGIN
  const place = `${job.cityName}, ${job.stateCode}`
  const listing = jobListingPath(job.service, job.citySlug)
  // The trail and the listing link name only pages worth a link.
  const listed = worthListing(jobCounts.find((r) => r.service === job.service)?.jobs ?? 0)
  const crumbs = [
    ...(hubDecision(services, jobCounts, c.get('flags').on).index
      ? [{ name: `Care in ${place}`, path: cityHubPath(job.citySlug) }]
      : []),
    ...(listed ? [{ name: jobs.title, path: listing }] : []),
    { name: job.title, path },
  ]
  const pay = rateRange(job.payMin, job.payMax, job.payUnit)
  return {
    head: pageHead(origin, {
      title: `${expired ? 'Closed: ' : ''}${job.title} in ${place}`,
      description: expired
        ? `This job in ${place} has closed. See open ${jobs.title.toLowerCase()} nearby.`
        : `${job.title}: ${pay}, ${place}. ${job.description}`,
      path,
      decision,
      // A closed job is no posting: it states no structured data at all.
      jsonLd: expired ? [] : [posting(job, absoluteUrl(origin, path))],
      crumbs: expired ? null : crumbs,
    }),
    crumbs,
    job,
    // A family is no organisation and its name is private: the page and JSON-LD say "Private family".
    employer: job.employer ?? PRIVATE_FAMILY,
    place,
    ages: jobs.service.ages,
    requirements: JOB_REQUIREMENTS,
    // Other jobs are not needed for the status: streamed after the shell.
    similar: otherJobs(db, job, { now, expired }),
    listing: listed
      ? {
          href: listing,
          text: `${jobs.title} in ${job.cityName}`,
          family: jobs.title.toLowerCase(),
          city: job.cityName,
        }
      : null,
    now,
    expired,
  }
}

/** Similar open jobs, or open ones nearby for a closed job, as cards. */
async function otherJobs(
  db: Db,
  job: Job,
  { now, expired }: { now: Date; expired: boolean },
): Promise<CardModel[]> {
  const jobs = expired
    ? await findOpenJobsNear(db, job, now, 6)
    : await findOpenJobs(db, [job.service], job.cityId, now, { excludeId: job.id, limit: 4 })
  return jobs.map((j) => jobCard(j, now))
}

/** The job as the JobPosting it is while open; a family posts as "Private family". */
function posting(job: Job, url: string): object {
  return jobPosting({
    url,
    id: job.id,
    siteName: SITE_NAME,
    title: job.title,
    description: job.description,
    datePosted: job.postedAt.slice(0, 10),
    validThrough: job.validThrough,
    employmentType: EMPLOYMENT_TYPE[job.schedule],
    employer: job.employer ?? PRIVATE_FAMILY,
    place: { locality: job.cityName, region: job.stateCode },
    pay: { min: job.payMin, max: job.payMax, unit: job.payUnit },
  })
}
