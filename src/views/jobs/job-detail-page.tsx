import { createElement, Suspense, use } from 'react'
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
import type { Fragments } from '../fragments'
import { fragment } from '../fragment'
import { Document } from '../document'
import type { DocumentParts } from '../render-document'
import { MARKUP_KEY, Placed } from '../markup'

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
  const placed = (id: Section, attributes: { className?: string; 'aria-labelledby'?: string }) => (
    <Placed tag={id === 'facts' ? 'dl' : 'section'} {...attributes} markupKey={MARKUP_KEY.job(id)}>
      {createElement(SECTIONS[id].Component, { body })}
    </Placed>
  )
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
          {placed('facts', { className: 'facts job-facts' })}
          {placed('description', { 'aria-labelledby': 'description-title' })}
          {body.requirements.length
            ? placed('requirements', { 'aria-labelledby': 'requirements-title' })
            : null}
        </>
      )}
    </>
  )
}

/**
 * A job's page as its route hands it to `renderDocument`: the main rendered apart
 * (`JobDetailPage`), the other jobs streamed after it, an open job's sections as fragments.
 */
export function jobView(props: JobDetailPageProps): DocumentParts {
  return {
    document: (placeCards) => (
      <Document head={props.head} layout="detail">
        <JobSimilar {...props} similar={placeCards(props.similar)} />
      </Document>
    ),
    main: <JobDetailPage {...props} />,
    fragments: (fragments) => jobMarkup(fragments, props),
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

/** An open job's sections as fragments: all they show is the body, whose JSON keys them. */
const jobKey = ({ body }: { body: JobBody }) => JSON.stringify(body)
const SECTIONS = {
  facts: fragment('job-facts', Facts, jobKey),
  description: fragment('job-description', Description, jobKey),
  requirements: fragment('job-requirements', Requirements, jobKey),
}

type Section = keyof typeof SECTIONS

/**
 * An open job's sections, rendered once per content: keyed by the JSON of all they show (the
 * start as a label, so a job that has started is another key), never an old job's markup.
 * None on the content's first render in the isolate (`Fragments.sections`).
 */
export function jobMarkup(fragments: Fragments, props: JobDetailPageProps): [string, string][] {
  if (props.expired) return []
  const body = jobBody(props)
  const json = jobKey({ body })
  const shown = Object.entries(SECTIONS).filter(
    ([id]) => id !== 'requirements' || body.requirements.length > 0,
  )
  return fragments.sections('job', shown, () => body, json, MARKUP_KEY.job)
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
