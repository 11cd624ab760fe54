export type Row = Record<string, string | number | null>

/** The rows of one city, by table. */
export interface CityRows {
  cities: Row[]
  providers: Row[]
  provider_services: Row[]
  reviews: Row[]
  jobs: Row[]
  activities: Row[]
}

/** The tables of the catalog, in the order they are filled. */
export const TABLES = [
  'cities',
  'providers',
  'provider_services',
  'reviews',
  'jobs',
  'activities',
] as const satisfies readonly (keyof CityRows)[]
