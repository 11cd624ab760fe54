import { DATA_PREFIX } from '../urls/data-prefix'
import { SEARCH } from '../urls/search-path'
import type { Suggestion } from '../views/search/search-form'

/** The cities the search form's typeahead suggests for `typed`, from `/_data/search`. */
export async function suggestPlaces(typed: string, signal: AbortSignal): Promise<Suggestion[]> {
  const res = await fetch(`${DATA_PREFIX}${SEARCH}?place=${encodeURIComponent(typed)}`, {
    headers: { 'x-data-request': '1' },
    signal,
    credentials: 'same-origin',
  })
  if (!res.ok) return []
  const body = (await res.json()) as { places?: Suggestion[] }
  return body.places ?? []
}
