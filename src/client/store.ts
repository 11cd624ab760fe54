import type { Live } from '../views/listing/islands'
import { IDLE } from '../views/listing/islands'
import type { ListingState } from '../views/listing/listing-state'

/** What the islands show: the listing state from the server, and what only the browser knows. */
export interface View {
  state: ListingState
  live: Live
}

// The one source the islands render from (`useSyncExternalStore`), set by the router.
let view: View | null = null
const listeners = new Set<() => void>()

export function initView(state: ListingState): void {
  view = { state, live: IDLE }
}

export function getView(): View {
  if (!view) throw new Error('listing view read before initView')
  return view
}

export function setView(next: Partial<View>): void {
  view = { ...getView(), ...next }
  listeners.forEach((listener) => listener())
}

export function setLive(patch: Partial<Live>): void {
  setView({ live: { ...getView().live, ...patch } })
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
