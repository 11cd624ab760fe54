// A fragment's declaration, apart from the renderer that keeps fragments (fragments.ts): the
// browser's bundle declares its cards with it, and must not take React's server renderer along.
import type { ComponentType } from 'react'

/**
 * A fragment: a component whose markup its props alone shape, declared with the key function
 * that says so (the JSON of what shapes it, say), under a name of its own. It is rendered apart
 * from the page, outside the page's context: it may not read a context (the lint's
 * `fragment-reads-no-context`, which follows the components it renders, checks it).
 */
export interface Fragment<P extends object> {
  readonly name: string
  readonly Component: ComponentType<P>
  readonly key: (props: P) => string
}

/** Declares a fragment (see `Fragment`). */
export function fragment<P extends object>(
  name: string,
  Component: ComponentType<P>,
  key: (props: P) => string,
): Fragment<P> {
  return { name, Component, key }
}
