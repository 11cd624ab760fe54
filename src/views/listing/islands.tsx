import type { ComponentType } from 'react'
import { FilterPanel } from './filter-panel'
import { IntentChoice } from './intent-choice'
import { ListingHeading } from './listing-heading'
import { ListingResults } from './listing-results'
import type { ListingState } from './listing-state'

/** What only the browser knows: a navigation under way, the intent being saved. */
export interface Live {
  busy: boolean
  /** Bumped when a navigation did not come from the form itself, so the form shows the new state. */
  formKey: number
  intent:
    | { kind: 'idle' }
    | { kind: 'saving' }
    | { kind: 'saved'; label: string; next: string }
    | { kind: 'failed' }
}

/** The state every island is rendered in on the server, and hydrated in. */
export const IDLE: Live = { busy: false, formKey: 0, intent: { kind: 'idle' } }

export interface IslandProps {
  state: ListingState
  live: Live
}

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
