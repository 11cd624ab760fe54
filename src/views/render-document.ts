import type { ReactElement } from 'react'
import { createElement } from 'react'
import { frameMarkup } from './document'
import type { Fragments } from './fragments'
import { cardMarkup } from './listing/card'
import type { CardModel, ListingState } from './listing/listing-state'
import { mainMarkup } from './main-markup'
import { Markup, Placement } from './markup'
import type { Rendered, RenderOptions } from './render-html'
import { renderHtml } from './render-html'
import type { Site } from './site-context'
import { SiteContext } from './site-context'

/**
 * Cards whose data arrives after the page's render started (a profile's or a job's similar
 * providers): the promise the view reads resolves once their markup is placed, so React finds
 * it instead of rendering each card (docs/performance.md: 7 % of a profile's miss).
 */
export type PlaceCards = (cards: Promise<readonly CardModel[]>) => Promise<readonly CardModel[]>

/** What a page's view gives the render path (docs/request-flow.md, "Rendering"). */
export interface DocumentParts {
  /**
   * The document React streams: the frame and the sections after `main`; a function of
   * `PlaceCards` when it streams cards.
   */
  document: ReactElement | ((placeCards: PlaceCards) => ReactElement)
  /**
   * The inside of the document's <main> up to the sections it streams, which never suspends:
   * rendered apart by React's string renderer (src/views/main-markup.ts).
   */
  main?: ReactElement
  /** The page's own fragments (src/views/fragments.ts), rendered before it. */
  fragments?: (fragments: Fragments) => Iterable<readonly [unknown, string]>
}

/**
 * A page as a route hands it to `renderDocument`: its parts, or a listing's state (what its
 * `/_data{path}` answers as JSON, docs/browser.md) and its parts, made only for its HTML.
 */
export type PageView = DocumentParts | { state: ListingState; parts: () => DocumentParts }

/**
 * The one render of a page's document: the frame's and the page's fragments rendered (or found)
 * first, the main apart, then the document streamed with each placed (src/views/markup.tsx), its
 * bytes returned beside the response.
 */
export function renderParts(
  site: Site,
  fragments: Fragments,
  parts: DocumentParts,
  options: Omit<RenderOptions, 'splices' | 'nonce'>,
): Promise<Rendered> {
  const placement = new Placement()
  const placeCards: PlaceCards = (cards) =>
    streamed(
      cards.then((models) => {
        placement.add(cardMarkup(fragments, models))
        return models
      }),
    )
  const document =
    typeof parts.document === 'function' ? parts.document(placeCards) : parts.document
  placement.add(frameMarkup(fragments, site))
  const own = parts.fragments?.(fragments) ?? []
  if (parts.main) placement.add([mainMarkup(site, parts.main, new Map(own))])
  else placement.add(own)
  const page = createElement(Markup.Provider, { value: placement.markup }, document)
  return renderHtml(createElement(SiteContext.Provider, { value: site }, page), {
    ...options,
    nonce: site.nonce,
    splices: placement.splices,
  })
}

/** A promise handed to a streamed section: React reads its outcome, so an early rejection must
 * not also surface as an unhandled one. */
export function streamed<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined)
  return promise
}
