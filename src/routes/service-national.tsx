import type { Context } from 'hono'
import { stateName } from '../catalog/states'
import { findNationalStats, findStateCounts, findTopCities } from '../data/service-stats'
import type { AppEnv } from '../env'
import { shownServices } from '../flags/visibility'
import { pageHead } from '../seo/head'
import { decideIndexing, MIN_INDEXABLE_PROVIDERS } from '../seo/indexability'
import { NationalPage } from '../views/directory/national-page'
import { Document } from '../views/document'
import { count, number, rateAverage } from '../views/parts/format'
import { cityPath, costPath, servicePath, statePath } from '../urls/paths'
import { renderDocument } from './render-document'
import { serviceParam } from './service-param'
import { TAG } from '../cache/tags'

/** `/{service}`: the national landing page of a service. */
export async function serviceNationalPage(c: Context<AppEnv>): Promise<Response> {
  const service = serviceParam(c)
  const pillar = c.get('flags').on('pillarPageRouting')
  const db = c.get('db')
  const min = MIN_INDEXABLE_PROVIDERS
  const [national, topCities, states] = await Promise.all([
    findNationalStats(db, service.slug),
    findTopCities(db, service.slug, { minProviders: min }),
    findStateCounts(db, service.slug, min),
  ])
  const decision = decideIndexing({ inventory: national?.providers ?? 0 })
  const path = servicePath(service.slug)
  const crumbs = [{ name: service.title, path }]
  const average = national
    ? ` Average rate ${rateAverage(national.rateAvg, national.payUnit)}.`
    : ''
  const head = pageHead(c.env.PUBLIC_ORIGIN, {
    title: `${service.title} near you`,
    description: `Find trusted ${service.nouns} near you. Compare profiles, reviews and rates in ${count(national?.cities ?? 0, 'city', 'cities')}.${average}`,
    path,
    decision,
    crumbs,
  })
  const content = (
    <NationalPage
      crumbs={crumbs}
      service={service}
      national={national}
      topCities={topCities.map((city) => ({
        href: cityPath(service.slug, city.slug),
        text: `${city.name}, ${city.stateCode}`,
        count: number(city.providers),
      }))}
      // By name, as people look for their state: Alabama before Alaska.
      states={states
        .map((s) => ({
          href: statePath(service.slug, s.stateCode),
          text: stateName(s.stateCode) ?? s.stateCode,
          count: number(s.providers),
        }))
        .sort((a, b) => a.text.localeCompare(b.text, 'en-US'))}
      pillar={pillar}
      guide={
        service.costGuide
          ? { href: costPath(service.slug), text: `What ${service.nouns} cost` }
          : null
      }
      related={shownServices(c.get('flags').on)
        .filter((s) => s.slug !== service.slug)
        .map((s) => ({ href: servicePath(s.slug), text: s.title }))}
    />
  )
  const options = { decision, tags: [TAG.service(service.slug)], lastModified: national?.updatedAt }
  return renderDocument(c, { document: <Document head={head} client />, main: content }, options)
}
