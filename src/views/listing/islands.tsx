import type { ComponentType } from 'react'
import type { Fragments } from '../fragments'
import { MARKUP_KEY, Placed } from '../markup'
import { FilterForm, FilterPanel } from './filter-panel'
import type { IslandProps } from './island-props'
import { IntentChoice } from './intent-choice'
import { ListingHeading } from './listing-heading'
import { ListingResults } from './listing-results'
import type { ListingState } from './listing-state'
import { IDLE } from './live'

// The browser's side of the islands, for src/client/store.ts.
export type { Live } from './live'
export { IDLE }

/**
 * The islands of a listing page: each is rendered on the server inside its own root element
 * (`<div data-island="name">`) and hydrated there by src/client, from the page's state.
 */
export const ISLANDS = {
  heading: ListingHeading,
  intent: IntentChoice,
  filters: FilterPanel,
  results: ListingResults,
} satisfies Record<string, ComponentType<IslandProps>>

export type IslandName = keyof typeof ISLANDS

/** The element id of the script that carries a listing's state as JSON. */
export const STATE_ID = 'listing-state'

/** An island's root, rendered on the server. */
export function Island({ name, state }: { name: IslandName; state: ListingState }) {
  const View = ISLANDS[name]
  return (
    <Placed
      tag="div"
      data-island={name}
      className="island"
      markupKey={name === 'filters' ? MARKUP_KEY.filters : null}
    >
      <View state={state} live={IDLE} />
    </Placed>
  )
}

/**
 * The filter panel, the largest island after the results, rendered once per listing path and
 * filter values: every page of it (sort, page N) shares it.
 */
export function filterMarkup(fragments: Fragments, state: ListingState): [unknown, string] {
  const { path, filters } = state
  return [
    MARKUP_KEY.filters,
    fragments.html('filters', FilterForm, { path, filters, formKey: IDLE.formKey }),
  ]
}
