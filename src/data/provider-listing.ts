import type { PayUnit } from '../catalog/enums'
import { PAGE_SIZE } from '../catalog/filters'
import type { ListingQuery } from '../queries/listing-query'
import type { City } from './cities'
import { box, MILES_PER_DEGREE, milesPerLngDegree } from '../lib/geo'
import type { Db, Param } from './db'

/** What a directory card shows. */
export interface ProviderCard {
  id: number
  nameSlug: string
  firstName: string
  lastName: string
  businessName: string | null
  photoUrl: string | null
  headline: string
  bio: string
  rating: number | null
  reviewCount: number
  yearsExperience: number
  rateMin: number
  rateMax: number
  payUnit: PayUnit
  badges: number
  lat: number
  lng: number
  service: string
  ages: number
  schedules: number
  capacity: number | null
  openingHours: string | null
}

const CARD_COLUMNS = `p.id, p.name_slug AS nameSlug, p.first_name AS firstName,
  p.last_name AS lastName, p.business_name AS businessName, p.photo_url AS photoUrl,
  p.headline, substr(p.bio, 1, 220) AS bio, p.rating, p.review_count AS reviewCount,
  ps.years_experience AS yearsExperience, ps.rate_min AS rateMin, ps.rate_max AS rateMax,
  ps.pay_unit AS payUnit, ps.badges, ps.lat, ps.lng, ps.service, ps.ages, ps.schedules,
  p.capacity, p.opening_hours AS openingHours`

/**
 * The WHERE clause of a directory: the (service, city) range of the listing indexes, then the
 * filters as conditions on the same rows. Distance is from the city centre, by an
 * equirectangular approximation (well under 1% off within 50 miles) after a bounding box.
 */
export function listingWhere(service: string, city: City, q: ListingQuery): [string, Param[]] {
  const where = ['ps.service = ?', 'ps.city_id = ?']
  const params: Param[] = [service, city.id]
  const allOf = (column: string, mask: number) => {
    if (mask) {
      where.push(`(ps.${column} & ?) = ?`)
      params.push(mask, mask)
    }
  }
  allOf('availability', q.availability)
  allOf('ages', q.ages)
  allOf('options', q.options)
  allOf('schedules', q.schedules)
  allOf('badges', q.badges)
  if (q.rate) {
    where.push('ps.rate_min <= ? AND ps.rate_max >= ?')
    params.push(q.rate.high, q.rate.low)
  }
  if (q.experience !== null) {
    where.push('ps.years_experience >= ?')
    params.push(q.experience)
  }
  if (q.distance !== null) {
    // Degrees of latitude, and longitudes scaled to them: an equirectangular distance.
    const dLat = q.distance / MILES_PER_DEGREE
    const k = milesPerLngDegree(city.lat) / MILES_PER_DEGREE
    where.push(
      'ps.lat BETWEEN ? AND ? AND ps.lng BETWEEN ? AND ?',
      '((ps.lat - ?) * (ps.lat - ?) + (ps.lng - ?) * (ps.lng - ?) * ?) <= ?',
    )
    params.push(...box(city, q.distance))
    params.push(city.lat, city.lat, city.lng, city.lng, k * k, dLat * dLat)
  }
  return [where.join(' AND '), params]
}

// Each order reads its own index, named so the planner never sorts a filtered range instead.
// Without ranked sorting (flag rankedDirectorySorting), RECOMMENDED is plain recency.
const ORDER: Record<ListingQuery['sort'], { index: string; by: string }> = {
  recommended: { index: 'provider_services_recommended', by: 'ps.rank_score DESC, ps.provider_id' },
  newest: { index: 'provider_services_newest', by: 'ps.created_at DESC, ps.provider_id' },
}

export interface Listing {
  total: number
  cards: ProviderCard[]
}

export async function findProviderListing(
  db: Db,
  service: string,
  city: City,
  q: ListingQuery,
  ranked = true,
): Promise<Listing> {
  const [where, params] = listingWhere(service, city, q)
  const order = ORDER[ranked ? q.sort : 'newest']
  const [count, cards] = await Promise.all([
    db.first<{ n: number }>(
      `SELECT COUNT(*) AS n FROM provider_services ps WHERE ${where}`,
      ...params,
    ),
    db.all<ProviderCard>(
      `SELECT ${CARD_COLUMNS} FROM provider_services ps INDEXED BY ${order.index}
         JOIN providers p ON p.id = ps.provider_id
        WHERE ${where} ORDER BY ${order.by} LIMIT ? OFFSET ?`,
      ...params,
      PAGE_SIZE,
      (q.page - 1) * PAGE_SIZE,
    ),
  ])
  return { total: count?.n ?? 0, cards }
}

/** A card of a state page's read, with what ranks it across shards. */
interface RankedCard extends ProviderCard {
  cityId: number
  cityProviders: number
  rankScore: number
}

/**
 * The best-ranked providers of a service in the `cities` largest cities of a state that have
 * `minProviders` or more of it (state pages), from the databases holding the state's cities
 * (one, or each shard of a split state, read together): the cities are chosen in the same read,
 * so the page needs no round trip before this one. Each database gives each of its own
 * `cities` largest cities' best `limit` by the recommended index, so the read is the same size
 * however many providers the cities have; the state's largest cities are among those, and their
 * best `limit` among those rows, so the merge is exact.
 */
export async function findTopProviders(
  dbs: readonly Db[],
  service: string,
  stateCode: string,
  { cities = 5, minProviders = 1, limit = 6 } = {},
): Promise<ProviderCard[]> {
  const parts = await Promise.all(
    dbs.map((db) =>
      db.all<RankedCard>(
        `SELECT ${CARD_COLUMNS}, s.city_id AS cityId, s.providers AS cityProviders,
                ps.rank_score AS rankScore
           FROM service_city_stats s
           JOIN provider_services ps ON ps.rowid IN (
                  SELECT x.rowid FROM provider_services x INDEXED BY provider_services_recommended
                   WHERE x.service = s.service AND x.city_id = s.city_id
                   ORDER BY x.rank_score DESC, x.provider_id LIMIT ?)
           JOIN providers p ON p.id = ps.provider_id
          WHERE s.service = ? AND s.city_id IN (
                  SELECT city_id FROM service_city_stats
                   WHERE service = ? AND state_code = ? AND providers >= ?
                   ORDER BY providers DESC, city_id LIMIT ?)`,
        limit,
        service,
        service,
        stateCode,
        minProviders,
        cities,
      ),
    ),
  )
  return bestOfLargest(parts.flat(), cities, limit)
}

/** A ranked row as the card it is, without what only ranked it. */
function cardOf(row: RankedCard): ProviderCard {
  const card: Partial<RankedCard> = { ...row }
  delete card.cityId
  delete card.cityProviders
  delete card.rankScore
  return card as ProviderCard
}

/** The best `limit` cards of the `cities` largest cities among `rows`, as cards. */
function bestOfLargest(rows: RankedCard[], cities: number, limit: number): ProviderCard[] {
  const sizes = new Map(rows.map((r) => [r.cityId, r.cityProviders]))
  const largest = new Set(
    [...sizes]
      .sort(([a, n], [b, m]) => m - n || a - b)
      .slice(0, cities)
      .map(([id]) => id),
  )
  return rows
    .filter((r) => largest.has(r.cityId))
    .sort((a, b) => b.rankScore - a.rankScore || a.id - b.id)
    .slice(0, limit)
    .map(cardOf)
}

/** The best-ranked other providers of a service in a city (a profile's "similar providers"). */
export function findSimilarProviders(
  db: Db,
  service: string,
  cityId: number,
  excludeId: number,
  limit = 4,
): Promise<ProviderCard[]> {
  return db.all<ProviderCard>(
    `SELECT ${CARD_COLUMNS} FROM provider_services ps INDEXED BY provider_services_recommended
       JOIN providers p ON p.id = ps.provider_id
      WHERE ps.service = ? AND ps.city_id = ? AND ps.provider_id != ?
      ORDER BY ps.rank_score DESC, ps.provider_id LIMIT ?`,
    service,
    cityId,
    excludeId,
    limit,
  )
}
