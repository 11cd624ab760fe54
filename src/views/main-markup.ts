import type { ReactElement } from 'react'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server.node'
import { Markup, MARKUP_KEY } from './markup'
import type { Site } from './site-context'
import { SiteContext } from './site-context'

/**
 * The inside of a page's <main> up to its streamed sections, rendered by React's string renderer
 * before the page and placed by the document as one fragment (`MARKUP_KEY.main`), the sections
 * streamed after it; the streamed document around it, its whole <head> first, is unchanged.
 * React's streaming renderer, in workerd, measures every string it writes with Node's
 * `Buffer.byteLength` and encodes each into its chunk with a call of its own, where its string
 * renderer joins them and the fragment is encoded once: 35 % of a cost guide's miss, 15 % of a
 * directory's and 12 % of a directory's first render (docs/performance.md). Rendered on every
 * render and never kept, so a page's first render gains too.
 *
 * For content that never suspends (the string renderer cannot wait for data): it is rendered
 * with the request's `site` and the page's own fragments (`markup`: cards, the filter panel,
 * a profile's sections), whose markup it writes in place.
 */
export function mainMarkup(
  site: Site,
  content: ReactElement,
  markup: ReadonlyMap<unknown, string>,
): [unknown, string] {
  const main = createElement(Markup.Provider, { value: markup }, content)
  return [
    MARKUP_KEY.main,
    renderToString(createElement(SiteContext.Provider, { value: site }, main)),
  ]
}
