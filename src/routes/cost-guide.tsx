import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { COST_GUIDE_SERVICES, EXPERIENCE_BANDS, MIN_COST_SAMPLE } from '../catalog/cost-guides'
import type { Service } from '../catalog/services'
import { findService } from '../catalog/services'
import type { City } from '../data/cities'
import { findNearbyCities } from '../data/cities'
import { milesBetween } from '../lib/geo'
import type { CityRate, ExperienceRate } from '../data/cost-guides'
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
import type { Crumb } from '../seo/json-ld'
import { pageHead } from '../seo/head'
import { costInventory, decideIndexing, worthListing } from '../seo/indexability'
import type { Bar } from '../views/cost/bar-chart'
import type { CostFigures, ExperienceRow } from '../views/cost/cost-guide-page'
import { CostGuidePage } from '../views/cost/cost-guide-page'
import { Document } from '../views/document'
import type { LinkItem } from '../views/parts/link-list'
import { count, rateAverage } from '../views/parts/format'
import { cityPath, costPath } from '../urls/paths'
import { renderDocument } from './render-document'
import { answersOf } from '../views/parts/answers'
import type { CacheTag } from '../cache/tags'
import { TAG } from '../cache/tags'

/** Compared cities have rates enough to mean something. */
const MEANINGFUL = { minProviders: MIN_COST_SAMPLE }
/** How many cities of each kind a guide compares with. */
const COMPARED_IN_STATE = 5
const COMPARED_LARGE = 5
const COMPARED_NATIONALLY = 12

/**
 * What a guide says, described by the handler of its pattern; one view renders both. `place` is
 * "Atlanta, GA", or null for the national guide; `own` is the guide's own bar beside the national
 * average, null on the national guide.
 */
interface Guide {
  service: Service
  place: string | null
  path: string
  crumbs: Crumb[]
  tags: CacheTag[]
  stats: RateStats
  national: RateStats
  own: Bar | null
  experience: ExperienceRow[]
  compared: CityRate[]
  comparedWith: string
  directory: LinkItem | null
  cities: LinkItem[]
  others: LinkItem[]
}

/** `/cost/{service}`: what care costs across the country, from the catalog's rates. */
export async function nationalCostGuidePage(c: Context<AppEnv>): Promise<Response> {
  const service = guideService(c)
  const db = c.get('db')
  // Every read at once: one round trip (docs/data.md).
  const [national, experience, largeRates, top] = await Promise.all([
    findNationalStats(db, service.slug),
    findExperienceRates(db, service.slug, 0),
    findLargeCityRates(db, service.slug, MEANINGFUL),
    // The cities with an indexable guide, largest first, where city guides exist.
    c.get('flags').config.costGuideLocalPage
      ? findTopCities(db, service.slug, { limit: 30, ...MEANINGFUL })
      : Promise.resolve([]),
  ])
  // No rates at all: there is nothing to say, and an empty guide would be a soft 404.
  if (!national) throw new HTTPException(404)
  const path = costPath(service.slug)
  return renderGuide(c, {
    service,
    place: null,
    path,
    crumbs: [{ name: `${service.title} costs`, path }],
    tags: [TAG.service(service.slug)],
    stats: national,
    national,
    own: null,
    experience: experienceRows(experience, experience),
    compared: largeRates.slice(0, COMPARED_NATIONALLY),
    comparedWith: 'the largest cities',
    directory: null,
    cities: top.map((r) => ({ href: costPath(service.slug, r.slug), text: placeOf(r) })),
    others: COST_GUIDE_SERVICES.filter((s) => s.slug !== service.slug).map((s) => ({
      href: costPath(s.slug),
      text: s.title,
    })),
  })
}

/** `/cost/{service}/{city-state}`: what care costs in a city, against the country. */
export async function cityCostGuidePage(c: Context<AppEnv>): Promise<Response> {
  const service = guideService(c)
  // City guides exist only with the cost guide local page configuration key.
  if (!c.get('flags').config.costGuideLocalPage) throw new HTTPException(404)
  const city = await c.get('cities').find(c.req.param('city') ?? '')
  if (!city) throw new HTTPException(404)
  const db = c.get('db')
  const shard = c.get('shards').ofCity(city.slug)
  // The city's figures from its shard ‖ the nation's, the state's and other cities' from control.
  const [local, national, experience, nationalExperience, stateRates, largeRates, links] =
    await Promise.all([
      findCityStats(shard, service.slug, city.id),
      findNationalStats(db, service.slug),
      findExperienceRates(shard, service.slug, city.id),
      findExperienceRates(db, service.slug, 0),
      findStateRates(db, service.slug, city.stateCode, MEANINGFUL),
      findLargeCityRates(db, service.slug, MEANINGFUL),
      cityLinks({ control: db, shard }, service.slug, city),
    ])
  if (!local || !national) throw new HTTPException(404)
  const place = placeOf(city)
  const path = costPath(service.slug, city.slug)
  return renderGuide(c, {
    service,
    place,
    path,
    crumbs: [
      { name: `${service.title} costs`, path: costPath(service.slug) },
      { name: place, path },
    ],
    tags: [TAG.service(service.slug), TAG.city(city.slug)],
    stats: local,
    national,
    own: { label: place, value: local.rateAvg, highlight: true },
    experience: experienceRows(experience, nationalExperience),
    ...comparedWithCity(city, stateRates, largeRates),
    directory: worthListing(local.providers)
      ? { href: cityPath(service.slug, city.slug), text: `See ${service.nouns} in ${city.name}` }
      : null,
    ...links,
  })
}

/** The service of a guide's path; a service without guides has none. */
function guideService(c: Context<AppEnv>): Service {
  const service = findService(c.req.param('service') ?? '')
  if (!service?.costGuide) throw new HTTPException(404)
  return service
}

function placeOf(city: { name: string; stateCode: string }): string {
  return `${city.name}, ${city.stateCode}`
}

/** Renders a described guide, with its head and headers. */
function renderGuide(c: Context<AppEnv>, guide: Guide): Promise<Response> {
  const { service, place, stats, national } = guide
  const decision = decideIndexing({ inventory: costInventory(stats.providers) })
  const year = stats.updatedAt.slice(0, 4)
  const head = pageHead(c.env.PUBLIC_ORIGIN, {
    title: `${service.title} cost${place ? ` in ${place}` : ''} (${year}): rates and prices`,
    description: `${service.title} cost ${rateAverage(stats.rateAvg, stats.payUnit)} on average${place ? ` in ${place}` : ' in the US'}, from the rates of ${count(stats.providers, 'caregiver', 'caregivers')}. See rates by experience and how ${place ?? 'cities'} compare.`,
    path: guide.path,
    decision,
    crumbs: guide.crumbs,
  })
  const content = (
    <CostGuidePage
      crumbs={guide.crumbs}
      service={service}
      place={place}
      figures={figures(stats, guide.own ? national : null)}
      comparison={comparison(guide.compared, guide.own, national)}
      comparedWith={guide.comparedWith}
      experience={guide.experience}
      thin={!decision.index}
      directory={guide.directory}
      cities={guide.cities}
      others={guide.others}
      answers={answersOf({
        service,
        place: place ?? 'the US',
        stats,
        national: guide.own ? national : null,
        cost: false,
        next: { kind: 'guide', directory: guide.directory?.href ?? null },
      })}
    />
  )
  return renderDocument(
    c,
    { document: <Document head={head} />, main: content },
    { decision, tags: guide.tags, lastModified: stats.updatedAt },
  )
}

/** The rates by experience band, the guide's own beside the national ones. */
function experienceRows(
  local: readonly ExperienceRate[],
  national: readonly ExperienceRate[],
): ExperienceRow[] {
  return EXPERIENCE_BANDS.map((band, i) => ({
    label: band.label,
    local: local.find((e) => e.band === i)?.rateAvg ?? null,
    national: national.find((e) => e.band === i)?.rateAvg ?? null,
  }))
}

/**
 * The cities a city's guide compares with, and what they are in words: the largest others of its
 * state and the nearest large cities elsewhere.
 */
function comparedWithCity(
  city: City,
  stateRates: readonly CityRate[],
  largeRates: readonly (CityRate & { lat: number; lng: number })[],
): { compared: CityRate[]; comparedWith: string } {
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
    compared: [...inState, ...nearestLarge],
    comparedWith: inState.length ? `${state} and ${large}` : large,
  }
}

/** The compared cities, the guide's own and the national average, the highest rate first. */
function comparison(compared: readonly CityRate[], own: Bar | null, national: RateStats): Bar[] {
  return [
    ...compared.map((r) => ({ label: placeOf(r), value: r.rateAvg })),
    ...(own ? [own] : []),
    { label: 'National average', value: national.rateAvg, highlight: !own, reference: true },
  ].sort((a, b) => b.value - a.value)
}

/** The figures of a guide, and how they compare with the national ones. */
function figures(stats: RateStats, national: RateStats | null): CostFigures {
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
async function cityLinks(
  { control, shard }: { control: Db; shard: Db },
  service: string,
  city: City,
): Promise<{ cities: LinkItem[]; others: LinkItem[] }> {
  const [nearby, counts] = await Promise.all([
    findNearbyCities(control, city, service, MEANINGFUL),
    findCityServices(shard, city.id),
  ])
  return {
    cities: nearby.map((n) => ({ href: costPath(service, n.slug), text: placeOf(n) })),
    others: COST_GUIDE_SERVICES.filter(
      (s) =>
        s.slug !== service &&
        worthListing(costInventory(counts.find((r) => r.service === s.slug)?.providers ?? 0)),
    ).map((s) => ({ href: costPath(s.slug, city.slug), text: `${s.title} in ${city.name}` })),
  }
}
