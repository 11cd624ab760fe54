import { Suspense } from 'react'
import type { Service } from '../../catalog/services'
import type { City } from '../../data/cities'
import { milesBetween } from '../../data/cities'
import type { Listing } from '../../data/provider-listing'
import type { RateStats } from '../../data/service-stats'
import type { FilterField } from '../../routes/filter-fields'
import type { ListingQuery } from '../../routes/listing-query'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { CallToAction } from '../shared/call-to-action'
import { count } from '../shared/format'
import type { LinkItem } from '../shared/link-list'
import { AsyncLinkList } from '../shared/link-list'
import { ListingLayout } from '../shared/listing-layout'
import { ProviderCardView } from './provider-card'
import { RateSummary } from './rate-summary'

export interface DirectoryPageProps {
  head: Head
  crumbs: readonly Crumb[]
  service: Service
  city: City
  place: string
  query: ListingQuery
  listing: Listing
  filtered: boolean
  thin: boolean
  local: RateStats | null
  guide: string | null
  national: RateStats | null
  filters: readonly FilterField[]
  pageHref: (page: number) => string
  action: string
  /** Slower link modules, streamed after the shell. */
  nearby: Promise<readonly LinkItem[]>
  related: Promise<readonly LinkItem[]>
}

/** A provider directory of a city (page kind PROVIDERS). */
export function DirectoryPage(props: DirectoryPageProps) {
  const { service, city, place, query, listing } = props
  return (
    <ListingLayout
      head={props.head}
      crumbs={props.crumbs}
      title={`${service.title} in ${place}`}
      lede={
        listing.total > 0
          ? `${count(listing.total, service.noun, service.nouns)} ${props.filtered ? 'match your filters' : 'near you'} in ${place}.`
          : null
      }
      notice={
        props.thin && !props.filtered
          ? `Only a few ${service.nouns} have profiles in ${place} so far. Nearby cities below have more.`
          : null
      }
      cta={
        <CallToAction
          segment={service.slug}
          text={`Tell us what you need and we'll match you with ${service.nouns} in ${place}.`}
          label={`Find ${service.title.toLowerCase()} now`}
        />
      }
      filters={props.filters}
      action={props.action}
      filtered={props.filtered}
      total={listing.total}
      page={query.page}
      sort={query.sort}
      pageHref={props.pageHref}
      cards={listing.cards.map((p) => (
        <ProviderCardView key={p.id} p={p} distance={milesBetween(city, p)} />
      ))}
      empty={
        props.filtered
          ? `No ${service.nouns} in ${place} match these filters.`
          : `No ${service.nouns} in ${place} have profiles yet.`
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
      <Suspense fallback={<p className="loading">Loading nearby cities…</p>}>
        <AsyncLinkList title={`${service.title} in nearby cities`} items={props.nearby} />
      </Suspense>
      <Suspense fallback={<p className="loading">Loading related services…</p>}>
        <AsyncLinkList title={`More care in ${place}`} items={props.related} />
      </Suspense>
    </ListingLayout>
  )
}
