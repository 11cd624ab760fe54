// City slugs are `{city}-{state}` with the two-letter state code (docs/pages.md, "Page types").

/** The product's twenty cost-guide cities, "Atlanta to Washington DC". */
export const SEED_CITIES = [
  'atlanta-ga',
  'austin-tx',
  'boston-ma',
  'charlotte-nc',
  'chicago-il',
  'columbus-oh',
  'dallas-tx',
  'denver-co',
  'houston-tx',
  'las-vegas-nv',
  'los-angeles-ca',
  'miami-fl',
  'new-york-ny',
  'philadelphia-pa',
  'phoenix-az',
  'san-antonio-tx',
  'san-diego-ca',
  'san-francisco-ca',
  'seattle-wa',
  'washington-dc',
] as const

/**
 * A place of this many people or more is a large city: the home page links them, and cost guides
 * elsewhere compare with the nearest.
 */
export const LARGE_CITY_POPULATION = 250_000

export function citySlug(name: string, stateCode: string): string {
  const base = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’.]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
  return `${base}-${stateCode.toLowerCase()}`
}

/** The state code at the end of a city slug, or null when the slug has no such shape. */
export function stateOfCitySlug(slug: string): string | null {
  const m = /^[a-z0-9]+(?:-[a-z0-9]+)*-([a-z]{2})$/.exec(slug)
  return m?.[1] ?? null
}
