import { Suspense } from 'react'
import type { Service } from '../../catalog/services'
import type { RateStats } from '../../data/service-stats'
import type { Crumb } from '../../seo/json-ld'
import { ListingMain } from '../listing/listing-layout'
import type { ListingState } from '../listing/listing-state'
import { CallToAction } from '../parts/call-to-action'
import type { LinkItem } from '../parts/link-list'
import { AsyncLinkList } from '../parts/link-list'
import { Answers, answersOf } from '../parts/answers'
import { RateSummary } from './rate-summary'

export interface DirectoryPageProps {
  crumbs: readonly Crumb[]
  state: ListingState
  service: Service
  place: string
  local: RateStats | null
  guide: string | null
  national: RateStats | null
}

/**
 * A provider directory of a city (page kind PROVIDERS): the inside of its <main> up to its link
 * modules, which are streamed after it (`DirectoryLinks`).
 */
export function DirectoryPage(props: DirectoryPageProps) {
  const { service, place } = props
  return (
    <ListingMain
      crumbs={props.crumbs}
      state={props.state}
      searchService={service}
      // The call to action, where the page asks no buying intent.
      aside={
        props.state.intent ? null : (
          <CallToAction
            segment={service.slug}
            text={`Tell us what you need and we'll match you with ${service.nouns} in ${place}.`}
            label={`Find ${service.title.toLowerCase()} now`}
          />
        )
      }
    >
      {props.local ? (
        <RateSummary
          service={service}
          place={place}
          local={props.local}
          national={props.national}
          guide={props.guide}
        />
      ) : null}
      {props.local ? (
        <Answers
          title={`${service.title} in ${place}: questions`}
          answers={answersOf({
            service,
            place,
            stats: props.local,
            national: props.national,
            // The rate summary above answers what they cost.
            cost: false,
            next: { kind: 'directory', filters: filterNames(props.state) },
          })}
        />
      ) : null}
    </ListingMain>
  )
}

/** A directory's slower link modules, streamed after the shell. */
export function DirectoryLinks(props: {
  service: Service
  place: string
  nearby: Promise<readonly LinkItem[]>
  related: Promise<readonly LinkItem[]>
  /** The RESOURCES module: camps and activities, on child care directories (else none). */
  resources: Promise<readonly LinkItem[]>
}) {
  return (
    <>
      <Suspense fallback={<p className="loading">Loading nearby cities…</p>}>
        <AsyncLinkList title={`${props.service.title} in nearby cities`} items={props.nearby} />
      </Suspense>
      <Suspense fallback={<p className="loading">Loading related services…</p>}>
        <AsyncLinkList title={`More care in ${props.place}`} items={props.related} />
      </Suspense>
      <Suspense fallback={null}>
        <AsyncLinkList title="Camps and activities for kids" items={props.resources} />
      </Suspense>
    </>
  )
}

/** The directory's filters as a sentence names them: "distance", "days available". */
function filterNames(state: ListingState): string[] {
  return state.filters.flatMap((f) => {
    if (f.name === 'sort') return []
    const label = f.kind === 'checks' ? f.legend : f.label
    return [label === 'Available on' ? 'days available' : label.toLowerCase()]
  })
}
