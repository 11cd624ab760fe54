import { Suspense, use } from 'react'
import type { Labelled } from '../../catalog/enums'
import { labelsOf } from '../../catalog/labels'
import type { Job } from '../../data/jobs'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { WorkCallToAction } from '../parts/call-to-action'
import { longDate, rateRange, startLabel } from '../parts/format'
import { Card } from '../listing/card'
import type { CardModel } from '../listing/listing-state'
import { scheduleLabel } from './job-card'
import { Document } from '../document'
import type { DocumentParts } from '../render-document'

export interface JobDetailPageProps {
  head: Head
  crumbs: readonly Crumb[]
  job: Job
  employer: string
  place: string
  ages: readonly Labelled[]
  requirements: readonly Labelled[]
  /** Slower: streamed after the shell, their cards' markup placed before the promise resolves. */
  similar: Promise<readonly CardModel[]>
  /**
   * The job listing of the service and city, when it is worth a link: "Pet care jobs in
   * Atlanta", and the family's name in a sentence ("pet care jobs").
   */
  listing: { href: string; text: string; family: string; city: string } | null
  now: Date
  /** From the moment validThrough passes the page is a 410 that points to open jobs. */
  expired: boolean
}

/**
 * A job's detail page (seoJobDetail, page id 1061), or its expired (410) form. "Apply now" comes
 * right after the heading, so a phone shows it on the first screen; on wide screens it stands
 * beside the job and stays in view (`layout="detail"`). The inside of the document's <main> up
 * to the other jobs (`JobSimilar`), rendered apart (src/views/main-markup.ts).
 */
export function JobDetailPage(props: JobDetailPageProps) {
  const { job } = props
  const body = jobBody(props)
  return (
    <>
      <Breadcrumbs crumbs={props.crumbs} />
      <h1>{job.title}</h1>
      {props.expired ? (
        <p className="notice">
          {`This job closed on ${longDate(job.validThrough)} and no longer takes applications.`}
          {props.listing ? (
            <>
              {' '}
              <a href={props.listing.href}>{props.listing.text}</a>
              {' are open now.'}
            </>
          ) : null}
        </p>
      ) : (
        <>
          <div className="detail-action">
            <WorkCallToAction
              work={job.service}
              text="Join free to apply to this job and message the family."
              label="Apply now"
            />
          </div>
          <dl className="facts job-facts">
            <Facts body={body} />
          </dl>
          <section aria-labelledby="description-title">
            <Description body={body} />
          </section>
          {body.requirements.length ? (
            <section aria-labelledby="requirements-title">
              <Requirements body={body} />
            </section>
          ) : null}
        </>
      )}
    </>
  )
}

/**
 * A job's page as its route hands it to `renderDocument`: the main rendered apart
 * (`JobDetailPage`), the other jobs streamed after it. Its sections are rendered in the main:
 * kept apart from a job's second render on, they saved about 1 % of its miss
 * (docs/performance.md).
 */
export function jobView(props: JobDetailPageProps): DocumentParts {
  return {
    document: (placeCards) => (
      <Document head={props.head} layout="detail">
        <JobSimilar {...props} similar={placeCards(props.similar)} />
      </Document>
    ),
    main: <JobDetailPage {...props} />,
  }
}

/** A job's other open jobs, streamed after its main (`JobDetailPage`). */
export function JobSimilar(props: JobDetailPageProps) {
  return (
    <Suspense fallback={<p className="loading">Loading other jobs…</p>}>
      <SimilarJobs {...props} />
    </Suspense>
  )
}

/** What an open job's sections show: the job, and its start as of today. */
interface JobBody {
  job: Job
  employer: string
  place: string
  start: string
  ages: string[]
  requirements: string[]
}

function jobBody(props: JobDetailPageProps): JobBody {
  const { job, employer, place } = props
  return {
    job,
    employer,
    place,
    start: startLabel(job.startDate, props.now),
    ages: labelsOf(job.ages, props.ages),
    requirements: labelsOf(job.requirements, props.requirements),
  }
}

function Facts({ body }: { body: JobBody }) {
  const { job, ages } = body
  return (
    <>
      <dt>Pay</dt>
      <dd>{rateRange(job.payMin, job.payMax, job.payUnit)}</dd>
      <dt>Schedule</dt>
      <dd>{scheduleLabel(job)}</dd>
      <dt>Start date</dt>
      <dd>{body.start}</dd>
      {job.children ? (
        <>
          <dt>Children</dt>
          <dd>{`${job.children}${ages.length ? `: ${ages.join(', ')}` : ''}`}</dd>
        </>
      ) : null}
      <dt>Location</dt>
      <dd>{body.place}</dd>
      <dt>Posted by</dt>
      <dd>{body.employer}</dd>
      <dt>Posted</dt>
      <dd>{longDate(job.postedAt)}</dd>
      <dt>Apply by</dt>
      <dd>{longDate(job.validThrough)}</dd>
    </>
  )
}

function Description({ body }: { body: JobBody }) {
  return (
    <>
      <h2 id="description-title">About the job</h2>
      <p>{body.job.description}</p>
    </>
  )
}

function Requirements({ body }: { body: JobBody }) {
  return (
    <>
      <h2 id="requirements-title">Requirements</h2>
      <ul>
        {body.requirements.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    </>
  )
}

/** Other jobs: similar open ones, or open ones nearby for a closed job. Streamed when slow. */
function SimilarJobs(props: JobDetailPageProps) {
  const similar = use(props.similar)
  if (!similar.length) return null
  return (
    <section aria-labelledby="similar-title">
      <h2 id="similar-title">
        {props.expired ? `Open jobs near ${props.place}` : `Similar jobs in ${props.place}`}
      </h2>
      <ul className="cards">
        {similar.map((j) => (
          <Card key={j.key} card={j} />
        ))}
      </ul>
      {props.listing ? (
        <p>
          <a href={props.listing.href}>
            {`See all ${props.listing.family} in ${props.listing.city}`}
          </a>
        </p>
      ) : null}
    </section>
  )
}
