import type { CatalogMessage } from './messages'

/** A reference of a message: the field, the table it names a row of, and the id. */
type Reference = [field: string, table: 'cities' | 'providers', id: number]

function referencesOf(m: CatalogMessage): Reference[] {
  switch (m.kind) {
    case 'provider.upserted':
      return [['entity.cityId', 'cities', m.entity.cityId]]
    case 'provider-service.offered':
      return [['id', 'providers', m.id]]
    case 'review.added':
      return [['entity.providerId', 'providers', m.entity.providerId]]
    case 'job.upserted':
    case 'job.closed':
      return [['entity.cityId', 'cities', m.entity.cityId]]
    case 'activity.upserted':
      return m.entity.cityId === null ? [] : [['entity.cityId', 'cities', m.entity.cityId]]
    default:
      return []
  }
}

const NOUN = { cities: 'city', providers: 'provider' } as const

/** Where a database holds the rows a reference names: the catalog's own tables, or control's. */
export type ReferenceTables = Readonly<Record<Reference[1], string>>

/** The tables of a database holding the whole catalog. */
export const CATALOG_TABLES: ReferenceTables = { cities: 'cities', providers: 'providers' }

/** Control's: its cities, and its directory of the providers the shards hold. */
export const DIRECTORY_TABLES: ReferenceTables = {
  cities: 'cities',
  providers: 'provider_directory',
}

/**
 * Why a message that failed to apply on its own cannot be applied, naming the field: the row it
 * refers to is not in the catalog. Null when that is not why. Read only for a message the queue
 * gave up on.
 */
export async function referenceProblem(
  db: D1Database,
  m: CatalogMessage,
  tables: ReferenceTables = CATALOG_TABLES,
): Promise<string | null> {
  for (const [field, table, id] of referencesOf(m)) {
    const row = await db
      .prepare(`SELECT 1 AS found FROM ${tables[table]} WHERE id = ?`)
      .bind(id)
      .first()
    if (!row) return `${field}: ${NOUN[table]} ${id} is not in the catalog`
  }
  return null
}
