import type { ReactNode } from 'react'
import { createContext, createElement, useContext } from 'react'

/**
 * Markup of fragments rendered before the page (src/views/fragments.ts), by what they show (a
 * card's model, a component): a view places it instead of rendering it again. In the browser it
 * holds the cards a listing page was served with, read from the page (src/client/placed-cards.ts):
 * React hydrates their markup as it is, and renders every other card itself.
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
