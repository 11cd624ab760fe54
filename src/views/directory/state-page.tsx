import type { Service } from '../../catalog/services'
import type { ProviderCard } from '../../data/provider-listing'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { Document } from '../document'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { CallToAction } from '../parts/call-to-action'
import { count } from '../parts/format'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'
import { ProviderCardView } from './provider-card'

export interface StatePageProps {
  head: Head
  crumbs: readonly Crumb[]
  service: Service
  stateName: string
  providers: number
  cities: readonly LinkItem[]
  top: readonly ProviderCard[]
  others: readonly LinkItem[]
}

/** The cities of a state with counts and top providers (page kind SEGMENTATION_STATE). */
export function StatePage(props: StatePageProps) {
  const { service, stateName } = props
  return (
    <Document head={props.head}>
      <Breadcrumbs crumbs={props.crumbs} />
      <h1>{`${service.title} in ${stateName}`}</h1>
      <p className="lede">
        {props.providers > 0
          ? `${count(props.providers, service.noun, service.nouns)} in ${count(props.cities.length, 'city', 'cities')} across ${stateName}.`
          : `No ${service.nouns} in ${stateName} have profiles yet.`}
      </p>
      <CallToAction
        segment={service.slug}
        text={`Tell us what you need and we'll match you with ${service.nouns} in ${stateName}.`}
        label={`Find ${service.title.toLowerCase()} now`}
      />
      <LinkList title={`${service.title} by city`} items={props.cities} />
      {props.top.length ? (
        <section aria-labelledby="top-title">
          <h2 id="top-title">{`Top ${service.nouns} in ${stateName}`}</h2>
          <ul className="cards">
            {props.top.map((p) => (
              <ProviderCardView key={p.id} p={p} distance={null} />
            ))}
          </ul>
        </section>
      ) : null}
      <LinkList title={`More care in ${stateName}`} items={props.others} />
    </Document>
  )
}
