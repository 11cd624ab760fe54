import type { Crumb } from '../../seo/json-ld'
import { ListingMain } from '../listing/listing-layout'
import type { ListingState } from '../listing/listing-state'
import { WorkCallToAction } from '../parts/call-to-action'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'

export interface JobListingPageProps {
  crumbs: readonly Crumb[]
  state: ListingState
  /** "babysitting jobs", for the call to action. */
  title: string
  /** The job family (`babysitting-jobs`), chosen for the visitor in the provider entry. */
  work: string
  place: string
  related: readonly LinkItem[]
}

/**
 * Open jobs of a service in a city (page kind JOBS): caregivers are asked to join, not the
 * intent. The inside of its <main>: it streams nothing.
 */
export function JobListingPage(props: JobListingPageProps) {
  return (
    <ListingMain
      crumbs={props.crumbs}
      state={props.state}
      aside={
        <WorkCallToAction
          work={props.work}
          text={`Join free to apply to ${props.title} in ${props.place} and hear about new ones first.`}
          label="Join and apply"
        />
      }
    >
      <LinkList title={`Also in ${props.place}`} items={props.related} />
    </ListingMain>
  )
}
