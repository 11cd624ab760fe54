import type { ReactNode } from 'react'
import { useContext } from 'react'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { scriptJson, scriptSafe } from '../../seo/json-ld'
import { Markup } from '../markup'
import { Document } from '../document'
import type { Service } from '../../catalog/services'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { PageSearch } from '../search/page-search'
import { Island, STATE_ID } from './islands'
import type { ListingState } from './listing-state'

export interface ListingLayoutProps {
  head: Head
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
 * The frame of every listing page: heading, call to action, filters, results and pages, each an
 * island hydrated from the state embedded below them; then the modules. On wide screens the
 * filters stand beside the results (styles.css).
 */
export function ListingLayout({
  head,
  crumbs,
  state,
  aside,
  children,
  searchService = null,
}: ListingLayoutProps) {
  const markup = useContext(Markup)
  return (
    <Document head={head} client>
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
      <script
        type="application/json"
        id={STATE_ID}
        dangerouslySetInnerHTML={{ __html: stateJson(state, markup.get(state.results.cards)) }}
      />
    </Document>
  )
}

/**
 * The state as the page embeds it: `scriptJson(state)`, with the cards' JSON taken from
 * `cardsJson` when the cards were serialised already (src/views/listing/card.tsx).
 */
export function stateJson(state: ListingState, cardsJson?: string): string {
  if (cardsJson === undefined) return scriptJson(state)
  const rest = scriptJson({ ...state, results: { ...state.results, cards: [] } })
  // A quote inside a JSON string is escaped, so this is the one key named cards.
  return rest.replace('"cards":[]', () => `"cards":${scriptSafe(cardsJson)}`)
}
