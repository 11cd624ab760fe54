import type { ComponentType } from 'react'
import type { Fragments } from '../fragments'
import { fragment } from '../fragment'
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
 * The filter panel, the largest island after the results, rendered once per filter values with
 * a stand-in for the listing's path, which is then written in: every city's listing of a service
 * with the same filters shares the render, so a city's first render places it too (5 % of a
 * crawler's first render of a directory, docs/performance.md). Each
 * listing's own panel is kept as well (every page of it, sort, page N, shares it), so a repeat
 * render finds it whole.
 */
export function filterMarkup(fragments: Fragments, state: ListingState): [unknown, string] {
  const { path, filters } = state
  const props = { path: PATH_SLOT, filters, formKey: IDLE.formKey }
  const json = JSON.stringify(props)
  const html = fragments.made(`filters@${json}${JSON.stringify(path)}`, () =>
    fragments.html(FILTERS, props, json).split(PATH_SLOT).join(attributeText(path)),
  )
  return [MARKUP_KEY.filters, html]
}

/** The filter panel's form: its path, filters and form key are all that shape it. */
const FILTERS = fragment('filters', FilterForm, (props) => JSON.stringify(props))

/**
 * Where the path goes in the shared filter panel: the form's action and its links, each an
 * attribute. Private-use characters, which no filter's name, value or label has.
 */
const PATH_SLOT = '\uE000path\uE000'

/** `text` as React writes it in an attribute's value. */
function attributeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c)
}
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
}
