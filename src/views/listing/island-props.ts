import type { ListingState } from './listing-state'
import type { Live } from './live'

/** What every island of a listing page renders from: the page's state and the browser's. */
export interface IslandProps {
  state: ListingState
  live: Live
}
