import type { Service } from '../../catalog/services'
import type { ProviderCard } from '../../data/provider-listing'
import type { Crumb } from '../../seo/json-ld'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { CallToAction } from '../parts/call-to-action'
import { count, number } from '../parts/format'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'
import type { Answer } from '../parts/answers'
import { Answers } from '../parts/answers'
import { PageSearch } from '../search/page-search'
import { ProviderCardView } from './provider-card'

export interface StatePageProps {
  crumbs: readonly Crumb[]
  service: Service
  stateName: string
  /** What the state has, in the numbers of what the page lists (stateSummary). */
  summary: string
  cities: readonly LinkItem[]
  top: readonly ProviderCard[]
  others: readonly LinkItem[]
  answers: readonly Answer[]
}

/**
 * "303 babysitters in 5 cities across Georgia, and 3 more in 2 places with only a few so far.":
 * the cities' counts add up to the first figure, since the page lists only cities worth a visit.
 * A state with more cities than the page reads (`whole`: the state's totals) is summed from its
 * totals, and the cities listed from their own: "7,786 babysitters in 376 places across Georgia,
 * 2,824 of them in the 24 cities with the most."
 */
export function stateSummary(
  service: Pick<Service, 'noun' | 'nouns'>,
  stateName: string,
  cities: readonly { providers: number; listed: boolean }[],
  whole: { providers: number; cities: number } | null = null,
): string {
  const listed = cities.filter((c) => c.listed)
  const others = cities.filter((c) => !c.listed)
  const sum = (rows: typeof cities) => rows.reduce((n, c) => n + c.providers, 0)
  const rest = `${count(others.length, 'place', 'places')} with only a few so far`
  if (cities.length === 0) return `No ${service.nouns} in ${stateName} have profiles yet.`
  if (whole) {
    const all = `${count(whole.providers, service.noun, service.nouns)} in ${count(whole.cities, 'place', 'places')} across ${stateName}`
    return listed.length
      ? `${all}, ${number(sum(listed))} of them in the ${count(listed.length, 'city', 'cities')} with the most.`
      : `${all}.`
  }
  if (listed.length === 0)
    return `${count(sum(others), service.noun, service.nouns)} in ${stateName}, in ${rest}.`
  const main = `${count(sum(listed), service.noun, service.nouns)} in ${count(listed.length, 'city', 'cities')} across ${stateName}`
  return others.length ? `${main}, and ${number(sum(others))} more in ${rest}.` : `${main}.`
}

/**
 * The cities of a state with counts and top providers (page kind SEGMENTATION_STATE). The inside
 * of the document's <main>, rendered apart (src/views/main-markup.ts).
 */
export function StatePage(props: StatePageProps) {
  const { service, stateName } = props
  return (
    <>
      <Breadcrumbs crumbs={props.crumbs} />
      <h1>{`${service.title} in ${stateName}`}</h1>
      <PageSearch service={service} />
      <p className="lede">{props.summary}</p>
      <CallToAction
        segment={service.slug}
        text={`Tell us what you need and we'll match you with ${service.nouns} in ${stateName}.`}
        label={`Find ${service.title.toLowerCase()} now`}
      />
      <LinkList title={`${service.title} by city`} items={props.cities} />
      <Answers title={`${service.title} in ${stateName}: questions`} answers={props.answers} />
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
    </>
  )
}
