import type { Crumb } from '../../seo/json-ld'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { CallToAction } from '../parts/call-to-action'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'
import { count } from '../parts/format'
import { PageSearch } from '../search/page-search'

export interface CityHubPageProps {
  crumbs: readonly Crumb[]
  place: string
  providers: number
  jobs: number
  services: readonly LinkItem[]
  jobLinks: readonly LinkItem[]
  /** The RESOURCES module: camps and activities for the city's families. */
  camps: readonly LinkItem[]
  nearby: readonly LinkItem[]
}

/**
 * Every service and job family of a city (page kind ALL_SERVICES_CITY): the inside of the
 * document's <main>, rendered apart (src/views/main-markup.ts).
 */
export function CityHubPage(props: CityHubPageProps) {
  return (
    <>
      <Breadcrumbs crumbs={props.crumbs} />
      <h1>{`Care in ${props.place}`}</h1>
      <PageSearch service={null} />
      <p className="lede">
        {props.providers + props.jobs > 0
          ? `${count(props.providers, 'caregiver', 'caregivers')} and ${count(props.jobs, 'open job', 'open jobs')} in ${props.place}.`
          : `No caregivers in ${props.place} have profiles yet.`}
      </p>
      <CallToAction
        segment="caregivers"
        text={`Tell us what you need and we'll match you with caregivers in ${props.place}.`}
        label="Find care now"
      />
      <LinkList title={`Caregivers in ${props.place}`} items={props.services} />
      <LinkList title={`Jobs in ${props.place}`} items={props.jobLinks} />
      <LinkList title="Camps and activities for kids" items={props.camps} />
      <LinkList title="Nearby cities" items={props.nearby} />
    </>
  )
}
