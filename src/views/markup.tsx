import type { ReactNode } from 'react'
import { createContext, createElement, useContext } from 'react'

/**
 * Markup of fragments rendered before the page (src/views/fragments.ts), by what they show (a
 * card's model, a component): a view places it instead of rendering it again. Beside them, by
 * a listing's cards, the cards' JSON serialised with their keys (src/views/listing/card.tsx).
 * Empty in the browser, where React renders everything, and hydrates the same markup.
 */
export const Markup = createContext<ReadonlyMap<unknown, string>>(new Map())

/**
 * An element whose inside is the markup kept for `of` when there is one, else `children`: the
 * same document either way.
 */
export function Placed({
  tag,
  of,
  children,
  ...attributes
}: {
  tag: 'li' | 'div' | 'header' | 'footer'
  of: unknown
  children: ReactNode
  className?: string
  id?: string
  'data-island'?: string
}) {
  const markup = useContext(Markup).get(of)
  return markup === undefined
    ? createElement(tag, attributes, children)
    : createElement(tag, { ...attributes, dangerouslySetInnerHTML: { __html: markup } })
}
