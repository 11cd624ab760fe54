// The search form's target (docs/pages.md, "Search"), apart from paths.ts: the browser script
// imports it without the catalog's route patterns.

export const SEARCH = '/search'

/** A search for `place` (a city slug, a ZIP code or typed text) among `service`'s directories. */
export const searchPath = (service: string, place: string) =>
  `${SEARCH}?${new URLSearchParams({ service, place }).toString()}`
