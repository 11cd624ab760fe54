import type { JobService } from '../../catalog/jobs'
import type { JobCard } from '../../data/jobs'
import type { FilterField } from '../../routes/filter-fields'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { CallToAction } from '../shared/call-to-action'
import { count } from '../shared/format'
import type { LinkItem } from '../shared/link-list'
import { LinkList } from '../shared/link-list'
import { ListingLayout } from '../shared/listing-layout'
import { JobCardView } from './job-card'

export interface JobListingPageProps {
  head: Head
  crumbs: readonly Crumb[]
  jobs: JobService
  place: string
  total: number
  cards: readonly JobCard[]
  page: number
  sort: string
  filtered: boolean
  thin: boolean
  filters: readonly FilterField[]
  action: string
  pageHref: (page: number) => string
  now: Date
  related: readonly LinkItem[]
}

/** Open jobs of a service in a city (page kind JOBS). */
export function JobListingPage(props: JobListingPageProps) {
  const { jobs, place } = props
  const title = jobs.title.toLowerCase()
  return (
    <ListingLayout
      head={props.head}
      crumbs={props.crumbs}
      title={`${jobs.title} in ${place}`}
      lede={
        props.total > 0
          ? `${count(props.total, 'open job', 'open jobs')} ${props.filtered ? 'match your filters' : 'near you'} in ${place}.`
          : null
      }
      notice={
        props.thin && !props.filtered ? `Only a few ${title} are open in ${place} right now.` : null
      }
      cta={
        <CallToAction
          segment="caregivers"
          text={`Join free to apply to ${title} in ${place} and hear about new ones first.`}
          label="Join and apply"
        />
      }
      filters={props.filters}
      action={props.action}
      filtered={props.filtered}
      total={props.total}
      page={props.page}
      sort={props.sort}
      pageHref={props.pageHref}
      cards={props.cards.map((job) => (
        <JobCardView key={job.id} job={job} now={props.now} />
      ))}
      empty={
        props.filtered
          ? `No open ${title} in ${place} match these filters.`
          : `No ${title} are open in ${place} right now.`
      }
    >
      <LinkList title={`Also in ${place}`} items={props.related} />
    </ListingLayout>
  )
}
