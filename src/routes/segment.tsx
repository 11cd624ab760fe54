import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { findSegment } from '../catalog/segments'
import { findService } from '../catalog/services'
import { findNationalStats, findTopCities } from '../data/service-stats'
import type { AppEnv } from '../env'
import { pageHead } from '../seo/head'
import { decideIndexing, MIN_INDEXABLE_PROVIDERS } from '../seo/indexability'
import { Document } from '../views/document'
import { SegmentPage } from '../views/segment/segment-page'
import { number, rateAverage } from '../views/parts/format'
import { cityPath, servicePath } from '../urls/paths'
import { renderDocument } from './render-document'
import { TAG } from '../cache/tags'

/** `/adult-care`, `/caregivers`, …: a segment landing page, its figures from the catalog. */
export async function segmentPage(c: Context<AppEnv>): Promise<Response> {
  const segment = findSegment(c.req.param('segment') ?? '')
  if (!segment) throw new HTTPException(404)
  const db = c.get('db')
  const main = segment.services[0] ?? 'senior-care'
  const [stats, cities] = await Promise.all([
    Promise.all(segment.services.map((s) => findNationalStats(db, s))),
    findTopCities(db, main, { limit: 12, minProviders: MIN_INDEXABLE_PROVIDERS }),
  ])
  const services = segment.services.flatMap((slug, i) => {
    const service = findService(slug)
    const s = stats[i]
    if (!service || !s) return []
    return [
      {
        href: servicePath(slug),
        text: service.title,
        count: `${number(s.providers)}, avg ${rateAverage(s.rateAvg, s.payUnit)}`,
      },
    ]
  })
  const mainTitle = findService(main)?.title ?? ''
  const path = servicePath(segment.slug)
  const crumbs = [{ name: segment.title, path }]
  const decision = decideIndexing({})
  const head = pageHead(c.env.PUBLIC_ORIGIN, {
    title: `${segment.title}: find trusted caregivers near you`,
    description: segment.intro,
    path,
    decision,
    crumbs,
  })
  const content = (
    <SegmentPage
      crumbs={crumbs}
      slug={segment.slug}
      title={segment.title}
      intro={segment.intro}
      services={services}
      cities={cities.map((city) => ({
        href: cityPath(main, city.slug),
        text: `${mainTitle} in ${city.name}, ${city.stateCode}`,
      }))}
    />
  )
  return renderDocument(
    c,
    { document: <Document head={head} />, main: content },
    {
      decision,
      tags: [TAG.segment(segment.slug)],
    },
  )
}
