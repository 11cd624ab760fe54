import type { Service } from '../../catalog/services'
import type { RateStats } from '../../data/service-stats'
import type { Crumb } from '../../seo/json-ld'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { CallToAction } from '../parts/call-to-action'
import { count, rateAverage, rateRange } from '../parts/format'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'
import { PageSearch } from '../search/page-search'

export interface NationalPageProps {
  crumbs: readonly Crumb[]
  service: Service
  national: (RateStats & { cities: number }) | null
  topCities: readonly LinkItem[]
  states: readonly LinkItem[]
  related: readonly LinkItem[]
  /** The pillar layout (flag pillarPageRouting): figures, the cost guide and top cities. */
  pillar: boolean
  guide: LinkItem | null
}

/**
 * The national landing page of a service (listing scope NATIONAL), as a pillar or simply: the
 * inside of the document's <main>, rendered apart (src/views/main-markup.ts).
 */
export function NationalPage(props: NationalPageProps) {
  const { service, national } = props
  return (
    <>
      <Breadcrumbs crumbs={props.crumbs} />
      <h1>{`${service.title} near you`}</h1>
      <PageSearch service={service} />
      {national && props.pillar ? (
        <p className="lede">
          {`${count(national.providers, service.noun, service.nouns)} in ${count(national.cities, 'city', 'cities')}. ` +
            `Average rate ${rateAverage(national.rateAvg, national.payUnit)}, from ${rateRange(national.rateMin, national.rateMax, national.payUnit)}.`}
        </p>
      ) : null}
      <CallToAction
        segment={service.slug}
        text={`Tell us what you need and we'll match you with ${service.nouns} near you.`}
        label={`Find ${service.title.toLowerCase()} now`}
      />
      {props.pillar ? (
        <>
          {props.guide ? (
            <p>
              <a href={props.guide.href}>{props.guide.text}</a>
            </p>
          ) : null}
          <LinkList
            title={`Top cities for ${service.title.toLowerCase()}`}
            items={props.topCities}
          />
        </>
      ) : null}
      <LinkList title={`${service.title} by state`} items={props.states} />
      {props.pillar ? <LinkList title="Related services" items={props.related} /> : null}
    </>
  )
}
