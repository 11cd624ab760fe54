import type { ReactNode } from 'react'
import { createContext, createElement, useContext } from 'react'
import type { Fragments } from './fragments'
import { Splices } from './splice'

/**
 * Markup of fragments rendered before the page (src/views/fragments.ts), by an explicit key
 * (`MARKUP_KEY`): a view places it instead of rendering it again. A card's key is its content,
 * so a copy of a card finds its markup and a changed card never finds another's. In the browser
 * it holds the cards a listing page was served with, read from the page
 * (src/client/placed-cards.ts): React hydrates their markup as it is, and renders every other
 * card itself.
 */
export const Markup = createContext<ReadonlyMap<unknown, string>>(new Map())

/**
 * The fragments one page's render places: its `Markup` for React (a marker for each) and the
 * `Splices` its stream puts the bytes back with. Fragments whose data comes after the render
 * started (a streamed section's cards) are added when it arrives, outside React's render,
 * before React sees the data that needs them.
 */
export class Placement {
  readonly markup = new Map<unknown, string>()
  readonly splices = new Splices()

  constructor(readonly fragments: Fragments) {}

  add(entries: Iterable<readonly [unknown, string]>): void {
    for (const [key, html] of entries)
      this.markup.set(key, this.splices.place(this.fragments.bytes(html)))
  }
}

/** The keys of markup rendered before the page. */
export const MARKUP_KEY = {
  header: 'header',
  footer: 'footer',
  /** The listing's filter panel: one a page. */
  filters: 'filters',
  /** A card, by its model serialised (`JSON.stringify(card)`). */
  card: (json: string) => `card:${json}`,
  /** A section about the provider on a profile: one of each a page. */
  profile: (section: string) => `profile:${section}`,
  /** A section about the job on an open job's page: one of each a page. */
  job: (section: string) => `job:${section}`,
  /**
   * The inside of the document's <main> up to its streamed sections, rendered apart before the
   * page (`mainMarkup`): its marker is text, the first of <main>, not an element's inside.
   */
  main: 'main',
} as const

/**
 * An element whose inside is the markup kept under `markupKey` when there is some, else
 * `children`: the same document either way.
 */
export function Placed({
  tag,
  markupKey,
  children,
  ...attributes
}: {
  tag: 'li' | 'div' | 'header' | 'footer' | 'section' | 'dl'
  markupKey: string | null
  children: ReactNode
  className?: string
  id?: string
  'data-island'?: string
  'aria-labelledby'?: string
}) {
  const markup = useContext(Markup)
  const html = markupKey === null || markup.size === 0 ? undefined : markup.get(markupKey)
  return html === undefined
    ? createElement(tag, attributes, children)
    : createElement(tag, { ...attributes, dangerouslySetInnerHTML: { __html: html } })
}
