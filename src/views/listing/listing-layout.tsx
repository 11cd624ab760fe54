import type { ReactElement, ReactNode } from 'react'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { scriptJson } from '../../seo/json-ld'
import { Document } from '../document'
import type { Service } from '../../catalog/services'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { PageSearch } from '../search/page-search'
import type { PageView } from '../render-document'
import { cardMarkup } from './card'
import { filterMarkup, Island, STATE_ID } from './islands'
import type { ListingState } from './listing-state'

/**
 * A listing page's parts: the inside of its <main> up to what it streams (`ListingMain`, rendered
 * apart: `DocumentParts.main`), the sections it streams after, and its head.
 */
export interface ListingView {
  head: Head
  main: ReactElement
  streamed?: ReactNode
}

export interface ListingMainProps {
  crumbs: readonly Crumb[]
  state: ListingState
  /** Said between the heading and the filters, outside the islands (banners, calls to action). */
  aside?: ReactNode
  /** Modules after the results (rate summary, link lists): the same in every state. */
  children?: ReactNode
  /** The service the header's search form has chosen: the listing's own, or none. */
  searchService?: Pick<Service, 'slug'> | null
}

/**
 * The main of every listing page: heading, call to action, filters, results and pages, each an
 * island hydrated from the state embedded below them (the cards from their own markup); then
 * the modules. On wide screens the filters stand beside the results (styles.css).
 */
export function ListingMain({
  crumbs,
  state,
  aside,
  children,
  searchService = null,
}: ListingMainProps) {
  return (
    <>
      <Breadcrumbs crumbs={crumbs} />
      <Island name="heading" state={state} />
      <PageSearch service={searchService} />
      {aside}
      {state.intent ? <Island name="intent" state={state} /> : null}
      <div className="listing-columns">
        <Island name="filters" state={state} />
        <Island name="results" state={state} />
      </div>
      {children}
    </>
  )
}

/**
 * The document of every listing page around its main (`ListingMain`): the sections it streams
 * (`children`), then its state for the islands.
 */
export function ListingDocument({
  head,
  state,
  children,
}: {
  head: Head
  state: ListingState
  children?: ReactNode
}) {
  return (
    <Document head={head} client>
      {children}
      <script
        type="application/json"
        id={STATE_ID}
        dangerouslySetInnerHTML={{ __html: scriptJson(embeddedState(state)) }}
      />
    </Document>
  )
}

/**
 * A listing page as a route hands it to `renderDocument`: its state (what its `/_data` path
 * answers), and, only for its HTML, its view, its cards and filter panel placed as fragments.
 */
export function listingView(state: ListingState, view: () => ListingView): PageView {
  return {
    state,
    parts: () => {
      const { head, main, streamed } = view()
      return {
        document: (
          <ListingDocument head={head} state={state}>
            {streamed}
          </ListingDocument>
        ),
        main,
        fragments: (fragments) => [
          ...cardMarkup(fragments, state.results.cards),
          filterMarkup(fragments, state),
        ],
      }
    },
  }
}

/**
 * What a page embeds of its state: all but the cards, which the browser takes from their markup
 * (src/client/placed-cards.ts), so no card is sent twice. Kept under `EMBEDDED_STATE_BUDGET`.
 */
export function embeddedState(state: ListingState): ListingState {
  return { ...state, results: { ...state.results, cards: [] } }
}
