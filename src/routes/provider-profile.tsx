import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import {
  CERTIFICATION_LABELS,
  LANGUAGE_LABELS,
  labelOf,
  RATING_CATEGORY_LABELS,
} from '../catalog/labels'
import type { Service } from '../catalog/services'
import { SERVICES } from '../catalog/services'
import { findSimilarProviders } from '../data/provider-listing'
import type { ServiceCount } from '../data/service-stats'
import { findCityServices, findStateLeaders } from '../data/service-stats'
import type { Provider } from '../data/providers'
import {
  findProvider,
  findProviderServices,
  findRatingAverages,
  findReviews,
  wasProviderRemoved,
} from '../data/providers'
import type { AppEnv } from '../env'
import { isServiceShown } from '../flags/visibility'
import { PAGE_IDS } from '../catalog/enums'
import { caregiverProfile, childCareBusiness } from '../seo/entity-json-ld'
import { directoryTrail } from '../seo/directory-trail'
import { absoluteUrl, MAX_TITLE, pageHead } from '../seo/head'
import { decideIndexing, worthListing } from '../seo/indexability'
import type { Crumb } from '../seo/json-ld'
import { count, displayName, rateRange } from '../views/parts/format'
import type { ProfilePageProps, ProfileService } from '../views/profile/profile-page'
import { profileView } from '../views/profile/profile-page'
import { cityPath, entityId, providerPath, providerSlug } from '../urls/paths'
import type { PageOptions } from './render-document'
import { renderDocument } from './render-document'
import type { CardModel } from '../views/listing/listing-state'
import { providerCard } from '../views/directory/provider-card'
import { entityRedirect } from '../cache/entity-redirect'
import { TAG } from '../cache/tags'

// A profile is about one provider who exists: always indexable.
const INDEXABLE = decideIndexing({})

/** `/p/{name-slug}-{id}`: a provider's profile (seoProviderProfile, page id 1050). */
export async function providerProfilePage(c: Context<AppEnv>): Promise<Response> {
  const slug = c.req.param('slug') ?? ''
  const loaded = await loadProfile(c, slug)
  const path = providerPath(loaded.provider)
  if (slug !== providerSlug(loaded.provider))
    return entityRedirect(c, path, [TAG.provider(loaded.provider.id)])
  const { props, options } = describeProfile(c, loaded, path)
  return renderDocument(c, profileView(props), options)
}

type LoadedProfile = Awaited<ReturnType<typeof loadProfile>>

/**
 * Every read named by the id at once, the city through the provider: one round trip to the
 * provider's shard, after control's directory has named it (docs/scale.md).
 */
async function loadProfile(c: Context<AppEnv>, slug: string) {
  const id = entityId(slug)
  if (id === null) throw new HTTPException(404)
  const placed = await c.get('shards').ofProvider(id)
  if (placed === 'removed') throw new HTTPException(410)
  if (!placed) throw new HTTPException(404)
  const { db, stateCode } = placed
  const [provider, rows, reviews, averages, cityCounts, stateLeaders] = await Promise.all([
    findProvider(db, id),
    findProviderServices(db, id),
    findReviews(db, id),
    findRatingAverages(db, id),
    findCityServices(db, { provider: id }),
    // The state's rollups are control's: by the directory's state, else through the provider.
    findStateLeaders(c.get('db'), stateCode ?? { provider: id }),
  ])
  if (!provider) throw new HTTPException((await wasProviderRemoved(db, id)) ? 410 : 404)
  // Services in catalog order: the first is the one the profile is about.
  const services: ProfileService[] = SERVICES.flatMap((service) => {
    const row = rows.find((r) => r.service === service.slug)
    return row ? [{ service, row }] : []
  })
  return { provider, services, reviews, averages, cityCounts, stateLeaders }
}

/** The profile's view and its head, crumbs, structured data, tags and analytics. */
function describeProfile(
  c: Context<AppEnv>,
  { provider, services, reviews, averages, cityCounts, stateLeaders }: LoadedProfile,
  path: string,
): { props: ProfilePageProps; options: PageOptions } {
  const primary = services[0]
  const name = provider.businessName ?? displayName(provider)
  const place = `${provider.cityName}, ${provider.stateCode}`
  const origin = c.env.PUBLIC_ORIGIN
  const languages = split(provider.languages).map((l) => labelOf(LANGUAGE_LABELS, l))
  const credentials = split(provider.certifications).map((l) => labelOf(CERTIFICATION_LABELS, l))
  // The directory trail, unless its pages are off for this request (daycare directory flow).
  const trail =
    primary && isServiceShown(primary.service.slug, c.get('flags').on) ? primary.service : null
  const crumbs = trail
    ? profileTrail(provider, trail, { city: cityCounts, state: stateLeaders }, { name, path })
    : [{ name, path }]
  const price = primary
    ? rateRange(primary.row.rateMin, primary.row.rateMax, primary.row.payUnit)
    : ''
  const props: ProfilePageProps = {
    head: profileHead(origin, provider, {
      name,
      place,
      path,
      price,
      crumbs,
      languages,
      credentials,
      noun: primary?.service.noun ?? 'caregiver',
    }),
    crumbs,
    provider,
    name,
    place,
    services,
    languages,
    credentials,
    ratings: averages
      .filter((a) => a.category !== 'OVERALL')
      .map((a) => ({ label: labelOf(RATING_CATEGORY_LABELS, a.category), average: a.average })),
    reviews,
    similar: similarCards(c, provider, primary?.service ?? null),
    ctaSegment: primary?.service.slug ?? 'caregivers',
    messaging: c.get('flags').on('embeddedGuestMessaging'),
  }
  return { props, options: profileOptions(provider, services) }
}

/** Other providers of the profile's first service in its city, as cards. */
async function similarCards(
  c: Context<AppEnv>,
  provider: Provider,
  service: Service | null,
): Promise<CardModel[]> {
  if (!service) return []
  const shard = c.get('shards').ofCity(provider.citySlug)
  const rows = await findSimilarProviders(shard, service.slug, provider.cityId, provider.id)
  const robust = c.get('flags').on('robustDaycareCards')
  return rows.map((p) => providerCard(p, null, robust))
}

/** The profile's title, description and structured data. */
function profileHead(
  origin: string,
  provider: Provider,
  about: {
    name: string
    place: string
    path: string
    price: string
    crumbs: Crumb[]
    languages: string[]
    credentials: string[]
    noun: string
  },
): ProfilePageProps['head'] {
  const { name, place, price } = about
  const smb = provider.businessType === 'SMB'
  const title = `${name}, ${about.noun} in ${place}`
  return pageHead(origin, {
    title: title.length <= MAX_TITLE ? title : `${name} in ${place}`,
    description: `${provider.headline}. ${price ? `${price}. ` : ''}${count(provider.yearsExperience, 'year', 'years')} ${smb ? 'in business' : 'of experience'} in ${place}.`,
    path: about.path,
    decision: INDEXABLE,
    jsonLd: [profileEntity(provider, { ...about, url: absoluteUrl(origin, about.path) })],
    crumbs: about.crumbs,
    ogType: smb ? 'website' : 'profile',
  })
}

/** The profile's headers and analytics: a purge of the provider, its city or a service reaches it. */
function profileOptions(provider: Provider, services: readonly ProfileService[]): PageOptions {
  const primary = services[0]
  return {
    decision: INDEXABLE,
    tags: [
      TAG.provider(provider.id),
      TAG.city(provider.citySlug),
      ...services.map((s) => TAG.service(s.service.slug)),
    ],
    lastModified: provider.updatedAt,
    analytics: {
      pageId: PAGE_IDS.provider,
      service: primary?.service.slug ?? null,
      vertical: primary?.service.vertical ?? null,
      city: provider.citySlug,
    },
  }
}

/** The directory's trail down to a profile, through the state and city pages worth a link. */
function profileTrail(
  provider: Provider,
  service: Service,
  counts: { city: ServiceCount[]; state: ServiceCount[] },
  profile: Crumb,
): Crumb[] {
  const providersOf = (rows: ServiceCount[]) =>
    rows.find((r) => r.service === service.slug)?.providers ?? 0
  const city = { name: provider.cityName, path: cityPath(service.slug, provider.citySlug) }
  return directoryTrail(
    service,
    { code: provider.stateCode, largestCity: providersOf(counts.state) },
    [...(worthListing(providersOf(counts.city)) ? [city] : []), profile],
  )
}

/** What the profile is about, as search engines read it: a centre with its rating, or a person. */
function profileEntity(
  provider: Provider,
  about: { url: string; name: string; price: string; languages: string[]; credentials: string[] },
): object {
  const { url, name } = about
  if (provider.businessType === 'SMB') {
    return childCareBusiness({
      url,
      name,
      description: provider.bio,
      place: { locality: provider.cityName, region: provider.stateCode, street: provider.address },
      priceRange: about.price,
      rating:
        provider.rating !== null
          ? { value: provider.rating.toFixed(1), count: provider.reviewCount }
          : null,
    })
  }
  return caregiverProfile({
    url,
    name,
    headline: provider.headline,
    description: provider.bio,
    place: { locality: provider.cityName, region: provider.stateCode },
    languages: about.languages,
    credentials: about.credentials,
  })
}

function split(csv: string): string[] {
  return csv ? csv.split(',') : []
}
