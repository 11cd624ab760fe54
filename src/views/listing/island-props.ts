import type { ListingState } from './listing-state'
import type { Live } from './live'

/** What every island of a listing page renders from: the page's state and the browser's. */
export interface IslandProps {
  state: ListingState
  live: Live
}

/**
 * Bytes of JSON a listing page may embed for its islands (docs/browser.md, "Budget"): the
 * filters, the intent question and the page's few texts, never the cards. `npm run build` prints
 * it beside the largest filter set.
 */
export const EMBEDDED_STATE_BUDGET = 6 * 1024
