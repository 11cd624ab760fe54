import type { ReactNode } from 'react'
import { createContext, createElement, useContext } from 'react'

/**
 * Markup of fragments rendered before the page (src/views/fragments.ts), by an explicit key
 * (`MARKUP_KEY`): a view places it instead of rendering it again. A card's key is its content,
 * so a copy of a card finds its markup and a changed card never finds another's. In the browser
 * it holds the cards a listing page was served with, read from the page
 * (src/client/placed-cards.ts): React hydrates their markup as it is, and renders every other
 * card itself.
 */
export const Markup = createContext<ReadonlyMap<unknown, string>>(new Map())

/** The keys of markup rendered before the page. */
export const MARKUP_KEY = {
  header: 'header',
  footer: 'footer',
  /** The listing's filter panel: one a page. */
  filters: 'filters',
  /** A card, by its model serialised (`JSON.stringify(card)`). */
  card: (json: string) => `card:${json}`,
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
  tag: 'li' | 'div' | 'header' | 'footer'
  markupKey: string | null
  children: ReactNode
  className?: string
  id?: string
  'data-island'?: string
}) {
  const markup = useContext(Markup)
  const html = markupKey === null || markup.size === 0 ? undefined : markup.get(markupKey)
  return html === undefined
    ? createElement(tag, attributes, children)
    : createElement(tag, { ...attributes, dangerouslySetInnerHTML: { __html: html } })
}
