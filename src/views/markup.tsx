import type { ReactNode } from 'react'
import { createContext, createElement, useContext } from 'react'
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
 * The markup one page's render places: its `Markup` for React, and the `Splices` its stream
 * puts the main's bytes back with. A fragment's markup goes to React as it is, the inside of
 * its `Placed` element (React writes it unescaped); the main rendered apart has no element of
 * its own (the sections streamed after it share its `<main>`), so React gets a marker for it
 * and the stream writes its bytes there: the one splicing scheme (src/views/splice.ts).
 */
export class Placement {
  readonly markup = new Map<unknown, string>()
  readonly splices = new Splices()

  add(entries: Iterable<readonly [unknown, string]>): void {
    for (const [key, html] of entries)
      this.markup.set(
        key,
        key === MARKUP_KEY.main ? this.splices.place(encoder.encode(html)) : html,
      )
  }
}

const encoder = new TextEncoder()

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
