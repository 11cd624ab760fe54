import type { ActivityKeyword } from '../catalog/activities'
import { PAGE_SIZE } from '../catalog/filters'
import type { ActivityQuery } from '../queries/activity-query'
import { isActivityQueryFiltered } from '../queries/activity-query'
import type { Db, Param } from './db'

export interface Activity {
  id: number
  name: string
  organizer: string
  category: string
  subcategory: string | null
  participation: 'IN_PERSON' | 'ONLINE'
  ages: number
  days: number
  startDate: string | null
  endDate: string | null
  isCamp: number
  price: number
  priceUnit: 'session' | 'wk' | 'mo' | 'flat'
  description: string
  venue: string | null
  address: string | null
  cityName: string | null
  citySlug: string | null
  stateCode: string | null
  /** Child care providers in the activity's city (service_city_stats), for the card's link. */
  cityChildCare: number | null
}

/** The directory an activity card points families to for care around its hours. */
export const CARE_AROUND_ACTIVITIES = 'child-care'

/** The WHERE clause of a keyword page's activities, and its parameters. */
function activityWhere(
  column: 'subcategory' | 'category',
  keyword: ActivityKeyword,
  q: ActivityQuery,
  today: string,
): { clause: string; params: Param[] } {
  const where = [`a.${column} = ?`, '(a.end_date IS NULL OR a.end_date >= ?)']
  const params: Param[] = [keyword.slug, today]
  const anyOf = (col: string, values: readonly string[]) => {
    if (values.length) {
      where.push(`a.${col} IN (${values.map(() => '?').join(', ')})`)
      params.push(...values)
    }
  }
  anyOf('category', q.categories)
  anyOf('subcategory', q.subcategories)
  if (q.dates) {
    where.push('(a.start_date IS NULL OR (a.start_date <= ? AND a.end_date >= ?))')
    params.push(q.dates.to, q.dates.from)
  }
  if (q.ages) {
    where.push('(a.ages & ?) != 0')
    params.push(q.ages)
  }
  if (q.days) {
    where.push('(a.days & ?) != 0')
    params.push(q.days)
  }
  if (q.participation) {
    where.push('a.participation = ?')
    params.push(q.participation)
  }
  if (q.onlyCamps) where.push('a.is_camp = 1')
  return { clause: where.join(' AND '), params }
}

/**
 * The activities of a keyword page that have not ended by `today` (YYYY-MM-DD), filtered, in
 * date order (ongoing classes, with no dates, first). A keyword reads its own index.
 */
export async function findActivities(
  db: Db,
  keyword: ActivityKeyword,
  q: ActivityQuery,
  today: string,
): Promise<{ total: number; items: Activity[] }> {
  const column = keyword.subcategory ? 'subcategory' : 'category'
  const { clause, params } = activityWhere(column, keyword, q, today)
  // The plain page sums the keyword's days from today on (activity_ends): a few hundred rows at
  // any scale, where counting walks every activity of the keyword.
  const counted = isActivityQueryFiltered(q)
    ? db.first<{ n: number }>(`SELECT COUNT(*) AS n FROM activities a WHERE ${clause}`, ...params)
    : db.first<{ n: number }>(
        'SELECT SUM(activities) AS n FROM activity_ends WHERE keyword = ? AND end_date >= ?',
        keyword.slug,
        today,
      )
  const [count, items] = await Promise.all([
    counted,
    db.all<Activity>(
      `SELECT a.id, a.name, a.organizer, a.category, a.subcategory, a.participation, a.ages, a.days,
              a.start_date AS startDate, a.end_date AS endDate, a.is_camp AS isCamp, a.price,
              a.price_unit AS priceUnit, a.description, a.venue, a.address,
              c.name AS cityName, c.slug AS citySlug, c.state_code AS stateCode,
              s.providers AS cityChildCare
         FROM activities a INDEXED BY activities_${column} LEFT JOIN cities c ON c.id = a.city_id
         LEFT JOIN service_city_stats s
           ON s.service = '${CARE_AROUND_ACTIVITIES}' AND s.city_id = a.city_id
        WHERE ${clause} ORDER BY a.start_date, a.id LIMIT ? OFFSET ?`,
      ...params,
      PAGE_SIZE,
      (q.page - 1) * PAGE_SIZE,
    ),
  ])
  return { total: count?.n ?? 0, items }
}

/** Current activities of the given keywords (categories and subcategories), from activity_stats. */
export async function findActivityCounts(
  db: Db,
  keywords: readonly string[],
): Promise<Map<string, number>> {
  const rows = await db.all<{ keyword: string; activities: number }>(
    `SELECT keyword, activities FROM activity_stats WHERE keyword IN (${keywords.map(() => '?').join(', ')})`,
    ...keywords,
  )
  return new Map(rows.map((r) => [r.keyword, r.activities]))
}
