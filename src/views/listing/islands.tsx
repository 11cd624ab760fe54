import type { ComponentType } from 'react'
import { FilterPanel } from './filter-panel'
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
    <div data-island={name} className="island">
      <View state={state} live={IDLE} />
    </div>
  )
}
