import { Suspense } from 'react'
import { PAGE_SIZE } from '../../catalog/filters'
import type { Service } from '../../catalog/services'
import type { City } from '../../data/cities'
import { milesBetween } from '../../data/cities'
import type { Listing } from '../../data/provider-listing'
import type { RateStats } from '../../data/service-stats'
import type { FilterField } from '../../routes/filter-fields'
import type { ListingQuery } from '../../routes/listing-query'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { Document } from '../document'
import { Breadcrumbs } from '../shared/breadcrumbs'
import { CallToAction } from '../shared/call-to-action'
import { FilterForm } from '../shared/filter-form'
import { count } from '../shared/format'
import type { LinkItem } from '../shared/link-list'
import { AsyncLinkList } from '../shared/link-list'
import { Pagination } from './pagination'
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
  const last = Math.max(1, Math.ceil(listing.total / PAGE_SIZE))
  const first = (query.page - 1) * PAGE_SIZE + 1
  return (
    <Document head={props.head}>
      <Breadcrumbs crumbs={props.crumbs} />
      <h1>{`${service.title} in ${place}${query.page > 1 ? ` (page ${query.page})` : ''}`}</h1>
      <p className="lede">
        {listing.total > 0
          ? `${count(listing.total, service.noun, service.nouns)} ${props.filtered ? 'match your filters' : 'near you'} in ${place}.`
          : null}
      </p>
      {props.thin && !props.filtered ? (
        <p className="notice">
          {`Only a few ${service.nouns} have profiles in ${place} so far. Nearby cities below have more.`}
        </p>
      ) : null}
      <CallToAction
        segment={service.slug}
        text={`Tell us what you need and we'll match you with ${service.title.toLowerCase()} in ${place}.`}
        label={`Find ${service.title.toLowerCase()} now`}
      />
      <FilterForm fields={props.filters} action={props.action} />
      {listing.cards.length ? (
        <>
          <div className="results-head">
            <span>{`Showing ${first}–${first + listing.cards.length - 1} of ${listing.total.toLocaleString('en-US')}`}</span>
            <span>{`Sorted by ${query.sort}`}</span>
          </div>
          <ul className="cards">
            {listing.cards.map((p) => (
              <ProviderCardView key={p.id} p={p} distance={milesBetween(city, p)} />
            ))}
          </ul>
          <Pagination current={query.page} last={last} href={props.pageHref} />
        </>
      ) : (
        <p className="notice">
          {`No ${service.nouns} in ${place} match these filters. `}
          <a href={props.action}>Clear the filters</a> to see everyone.
        </p>
      )}
      {props.local ? (
        <RateSummary
          service={service}
          place={place}
          local={props.local}
          national={props.national}
        />
      ) : null}
      <Suspense fallback={<p className="loading">Loading nearby cities…</p>}>
        <AsyncLinkList title={`${service.title} in nearby cities`} items={props.nearby} />
      </Suspense>
      <Suspense fallback={<p className="loading">Loading related services…</p>}>
        <AsyncLinkList title={`More care in ${place}`} items={props.related} />
      </Suspense>
    </Document>
  )
}
