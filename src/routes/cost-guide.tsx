import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { COST_GUIDE_SERVICES, EXPERIENCE_BANDS, MIN_COST_SAMPLE } from '../catalog/cost-guides'
import { findService } from '../catalog/services'
import type { City } from '../data/cities'
import { findNearbyCities, milesBetween } from '../data/cities'
import type { CityRate } from '../data/cost-guides'
import { findExperienceRates, findLargeCityRates, findStateRates } from '../data/cost-guides'
import type { Db } from '../data/db'
import type { RateStats } from '../data/service-stats'
import {
  findCityServices,
  findCityStats,
  findNationalStats,
  findTopCities,
} from '../data/service-stats'
import type { AppEnv } from '../env'
import { stateName } from '../catalog/states'
import { pageHead } from '../seo/head'
import { costInventory, decideIndexing, worthListing } from '../seo/indexability'
import type { Bar } from '../views/cost/bar-chart'
import type { CostFigures } from '../views/cost/cost-guide-page'
import { CostGuidePage } from '../views/cost/cost-guide-page'
import { count, rateAverage } from '../views/parts/format'
import { cityPath, costPath } from '../urls/paths'
import { renderPage } from './render-page'
import { answersOf } from '../views/parts/answers'
import { TAG } from '../cache/tags'

/** `/cost/{service}` and `/cost/{service}/{city-state}`: what care costs, from the catalog's rates. */
export async function costGuidePage(c: Context<AppEnv>): Promise<Response> {
  const service = findService(c.req.param('service') ?? '')
  if (!service?.costGuide) throw new HTTPException(404)
  const { db } = c.var
  const citySlug = c.req.param('city')
  // City guides exist only with the cost guide local page configuration key.
  if (citySlug && !c.var.flags.config.costGuideLocalPage) throw new HTTPException(404)
  const city = citySlug ? await c.var.cities.find(citySlug) : null
  if (citySlug && !city) throw new HTTPException(404)

  // Every read at once: one round trip (docs/data.md).
  // Compared cities have rates enough to mean something.
  const meaningful = { minProviders: MIN_COST_SAMPLE }
  const [
    local,
    national,
    experience,
    nationalExperience,
    stateRates,
    largeRates,
    [cities, others],
  ] = await Promise.all([
    city ? findCityStats(db, service.slug, city.id) : Promise.resolve(null),
    findNationalStats(db, service.slug),
    findExperienceRates(db, service.slug, city?.id ?? 0),
    findExperienceRates(db, service.slug, 0),
    city ? findStateRates(db, service.slug, city.stateCode, meaningful) : Promise.resolve([]),
    findLargeCityRates(db, service.slug, meaningful),
    city
      ? cityLinks(db, service.slug, city)
      : nationalLinks(db, service.slug, c.var.flags.config.costGuideLocalPage),
  ])
  const stats = city ? local : national
  const compared = comparedCities(city, stateRates, largeRates)
  // No rates at all: there is nothing to say, and an empty guide would be a soft 404.
  if (!stats || !national) throw new HTTPException(404)

  const path = costPath(service.slug, city?.slug)
  const place = city ? `${city.name}, ${city.stateCode}` : null
  const figures = compare(stats, city ? national : null)
  const decision = decideIndexing({ inventory: costInventory(stats.providers) })
  const crumbs = [
    { name: `${service.title} costs`, path: costPath(service.slug) },
    ...(city && place ? [{ name: place, path }] : []),
  ]
  const year = stats.updatedAt.slice(0, 4)
  const directory =
    city && worthListing(local?.providers ?? 0)
      ? { href: cityPath(service.slug, city.slug), text: `See ${service.nouns} in ${city.name}` }
      : null

  return renderPage(
    c,
    <CostGuidePage
      head={pageHead(c.env.PUBLIC_ORIGIN, {
        title: `${service.title} cost${place ? ` in ${place}` : ''} (${year}): rates and prices`,
        description: `${service.title} cost ${rateAverage(stats.rateAvg, stats.payUnit)} on average${place ? ` in ${place}` : ' in the US'}, from the rates of ${count(stats.providers, 'caregiver', 'caregivers')}. See rates by experience and how ${place ?? 'cities'} compare.`,
        path,
        decision,
        crumbs,
      })}
      crumbs={crumbs}
      service={service}
      place={place}
      figures={figures}
      comparison={comparison(compared.cities, city, stats, national)}
      comparedWith={compared.described}
      experience={EXPERIENCE_BANDS.map((band, i) => ({
        label: band.label,
        local: experience.find((e) => e.band === i)?.rateAvg ?? null,
        national: nationalExperience.find((e) => e.band === i)?.rateAvg ?? null,
      }))}
      thin={!decision.index}
      directory={directory}
      cities={cities}
      others={others}
      answers={answersOf({
        service,
        place: place ?? 'the US',
        stats,
        national: city ? national : null,
        cost: false,
        next: { kind: 'guide', directory: directory?.href ?? null },
      })}
    />,
    {
      decision,
      tags: [TAG.service(service.slug), ...(city ? [TAG.city(city.slug)] : [])],
      lastModified: stats.updatedAt,
    },
  )
}

/** How many cities of each kind a guide compares with. */
const COMPARED_IN_STATE = 5
const COMPARED_LARGE = 5
const COMPARED_NATIONALLY = 12

/**
 * The cities a guide compares with, and what they are in words: for a city, the largest others
 * of its state and the nearest large cities elsewhere; nationally, the largest cities.
 */
function comparedCities(
  city: City | null,
  stateRates: readonly CityRate[],
  largeRates: readonly (CityRate & { lat: number; lng: number })[],
): { cities: CityRate[]; described: string } {
  if (!city)
    return { cities: largeRates.slice(0, COMPARED_NATIONALLY), described: 'the largest cities' }
  const inState = stateRates.filter((r) => r.slug !== city.slug).slice(0, COMPARED_IN_STATE)
  const nearestLarge = largeRates
    .filter((r) => r.stateCode !== city.stateCode)
    .map((r) => ({ rate: r, miles: milesBetween(city, r) }))
    .sort((a, b) => a.miles - b.miles)
    .slice(0, COMPARED_LARGE)
    .map(({ rate }) => rate)
  const state = `other cities in ${stateName(city.stateCode) ?? city.stateCode}`
  const large = 'the nearest large cities'
  return {
    cities: [...inState, ...nearestLarge],
    described: inState.length ? `${state} and ${large}` : large,
  }
}

/** The compared cities, the guide's own and the national average, the highest rate first. */
function comparison(
  compared: readonly CityRate[],
  city: City | null,
  stats: RateStats,
  national: RateStats,
): Bar[] {
  return [
    ...compared
      .filter((r) => r.slug !== city?.slug)
      .map((r) => ({ label: `${r.name}, ${r.stateCode}`, value: r.rateAvg })),
    ...(city
      ? [{ label: `${city.name}, ${city.stateCode}`, value: stats.rateAvg, highlight: true }]
      : []),
    { label: 'National average', value: national.rateAvg, highlight: !city, reference: true },
  ].sort((a, b) => b.value - a.value)
}

/** The figures of a guide, and how they compare with the national ones. */
function compare(stats: RateStats, national: RateStats | null): CostFigures {
  const diff = national ? (stats.rateAvg - national.rateAvg) / national.rateAvg : 0
  const percent = Math.round(Math.abs(diff) * 100)
  return {
    average: stats.rateAvg,
    min: stats.rateMin,
    max: stats.rateMax,
    payUnit: stats.payUnit,
    sample: stats.providers,
    updatedAt: stats.updatedAt,
    national: national?.rateAvg ?? null,
    direction: !national || percent === 0 ? null : diff > 0 ? 'HIGHER' : 'LOWER',
    percent,
  }
}

/** The same service's guides in nearby cities, and the city's other guides, where indexable. */
async function cityLinks(db: Db, service: string, city: City) {
  const [nearby, counts] = await Promise.all([
    findNearbyCities(db, city, service, { minProviders: MIN_COST_SAMPLE }),
    findCityServices(db, city.id),
  ])
  return [
    nearby.map((n) => ({ href: costPath(service, n.slug), text: `${n.name}, ${n.stateCode}` })),
    COST_GUIDE_SERVICES.filter(
      (s) =>
        s.slug !== service &&
        worthListing(costInventory(counts.find((r) => r.service === s.slug)?.providers ?? 0)),
    ).map((s) => ({ href: costPath(s.slug, city.slug), text: `${s.title} in ${city.name}` })),
  ] as const
}

/**
 * The cities with an indexable guide, largest first (where city guides exist), and the other
 * services' national guides.
 */
async function nationalLinks(db: Db, service: string, cityGuides: boolean) {
  const top = cityGuides
    ? await findTopCities(db, service, { limit: 30, minProviders: MIN_COST_SAMPLE })
    : []
  return [
    top.map((r) => ({ href: costPath(service, r.slug), text: `${r.name}, ${r.stateCode}` })),
    COST_GUIDE_SERVICES.filter((s) => s.slug !== service).map((s) => ({
      href: costPath(s.slug),
      text: s.title,
    })),
  ] as const
}
