// What the browser script (./entry.ts) loads on the visitor's first interaction: it hydrates
// each island on its own root, from the state the page carries, takes over navigation between
// listing states, and turns the search form into a typeahead (docs/browser.md). React 19
// renders the islands here as on the server; with React, this is the build's `react.js`
// (scripts/build-assets.ts).
import type { ReactNode } from 'react'
import { startTransition, useEffect, useSyncExternalStore } from 'react'
import { hydrateRoot } from 'react-dom/client'
import type { IslandName } from '../views/listing/islands'
import { ISLANDS, STATE_ID } from '../views/listing/islands'
import type { ListingState } from '../views/listing/listing-state'
import { Markup } from '../views/markup'
import { fail, IslandBoundary, isOurs } from './app-error'
import { withPlacedCards } from './placed-cards'
import { tracePageLoad } from './report'
import { startRouter } from './router'
import { suggestPlaces } from './search'
import type { SearchFormProps } from '../views/search/search-form'
import { SEARCH_PROPS_ID, SearchForm } from '../views/search/search-form'
import { getView, initView, subscribe } from './store'

function LiveIsland({ name }: { name: IslandName }) {
  // Hydration reads the same view as later renders: the state the server rendered, idle.
  const { state, live } = useSyncExternalStore(subscribe, getView, getView)
  const View = ISLANDS[name]
  return <View state={state} live={live} />
}

let hydrating = 0
let settle: () => void = () => undefined
/** Resolves once every root of the page has hydrated: the islands and the search form. */
export const hydrated = new Promise<void>((resolve) => (settle = resolve))

function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    if (--hydrating === 0) settle()
  }, [])
  return children
}

// As a transition, hydration yields to the browser every few milliseconds instead of holding
// the main thread for a whole island: a tap or a scroll is never kept waiting by it.
function hydrate(root: Element, children: ReactNode): void {
  hydrating++
  startTransition(() => {
    hydrateRoot(root, <Hydrated>{children}</Hydrated>)
  })
}

window.addEventListener('error', (event) => {
  if (isOurs(event.filename, (event.error as Error | undefined)?.stack)) fail(event.error)
})
window.addEventListener('unhandledrejection', (event) => {
  const reason = event.reason as Error | undefined
  if (isOurs(undefined, reason?.stack)) fail(reason)
})

const json = document.getElementById(STATE_ID)?.textContent
if (json) {
  const { state, markup } = withPlacedCards(
    JSON.parse(json) as ListingState,
    document.querySelector('[data-island="results"]') ?? document,
  )
  initView(state)
  for (const root of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = root.dataset.island
    if (name && name in ISLANDS) {
      hydrate(
        root,
        <Markup value={markup}>
          <IslandBoundary>
            <LiveIsland name={name as IslandName} />
          </IslandBoundary>
        </Markup>,
      )
    }
  }
  startRouter()
}

// The search form, on the home page and listings: a typeahead over the catalog's cities.
const searchRoot = document.querySelector<HTMLElement>('[data-search]')
const searchProps = document.getElementById(SEARCH_PROPS_ID)?.textContent
if (searchRoot && searchProps) {
  const props = JSON.parse(searchProps) as SearchFormProps
  // The visitor may have typed before React arrived (the focus that loaded it, then keys).
  const typed = searchRoot.querySelector<HTMLInputElement>('input[name="place"]')?.value
  hydrate(
    searchRoot,
    <IslandBoundary>
      <SearchForm
        {...props}
        {...(typed !== undefined && typed !== props.place ? { typedBefore: typed } : {})}
        suggest={suggestPlaces}
      />
    </IslandBoundary>,
  )
}
if (!hydrating) settle()

if (document.readyState === 'complete') tracePageLoad()
else window.addEventListener('load', () => setTimeout(tracePageLoad, 0))
