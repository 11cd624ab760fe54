import { STATES } from '../catalog/states'

// The search form's query (docs/pages.md, "Search"): a service slug and a place as a visitor
// types it: a ZIP code ("30303", "30303-1234"), a city ("Atlanta"), a city and its state
// ("Atlanta, GA", "atlanta ga", "Springfield, Illinois") or a city slug ("atlanta-ga").

/** Longer than any US place name with its state: anything past it is not a place. */
export const MAX_PLACE_LENGTH = 80

/** What the place field says, once read. */
export type Place =
  | { kind: 'zip'; zip: string }
  /** `name` as a slug's name part ("new-york"); `stateCode` when the text named a state. */
  | { kind: 'city'; name: string; stateCode: string | null }

export interface SearchQuery {
  /** The service slug as sent: the route checks it against the services shown. */
  service: string | null
  /** The text as the visitor typed it, trimmed, for the page to show back. */
  text: string
  /** Null when the text holds no letter or digit to search by. */
  place: Place | null
}

const STATE_BY_NAME = new Map(
  Object.entries(STATES).map(([code, name]) => [words(name).join(' '), code]),
)

/** Reads `service` and `place`; never fails: the route says what is missing. */
export function parseSearchQuery(params: URLSearchParams): SearchQuery {
  const service = params.get('service')?.trim().toLowerCase() || null
  const text = (params.get('place') ?? '').trim().replace(/\s+/g, ' ').slice(0, MAX_PLACE_LENGTH)
  return { service, text, place: readPlace(text) }
}

export function readPlace(text: string): Place | null {
  const zip = /^(\d{5})(?:-\d{4})?$/.exec(text)
  if (zip?.[1]) return { kind: 'zip', zip: zip[1] }
  const all = words(text)
  if (all.length === 0) return null
  // The state, when the text ends with one: a two-letter code or a state's whole name.
  for (let n = Math.min(3, all.length - 1); n >= 1; n--) {
    const tail = all.slice(-n).join(' ')
    const code = n === 1 && tail.length === 2 ? tail.toUpperCase() : STATE_BY_NAME.get(tail)
    if (code && STATES[code])
      return { kind: 'city', name: all.slice(0, -n).join('-'), stateCode: code }
  }
  return { kind: 'city', name: all.join('-'), stateCode: null }
}

/** Lowercase ASCII words, as city slugs spell them ("St. Louis" → st, louis). */
function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’.]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}
