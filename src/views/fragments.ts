import { LRUCache } from 'lru-cache'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server.node'
import type { Fragment } from './fragment'

/** What an isolate's rendered fragments may hold in all (string length, about bytes). */
const MAX_SIZE = 4 * 1024 * 1024
/** What the keys of content seen once may hold in all (string length). */
const MAX_SEEN = 1024 * 1024

/**
 * Fragments that many pages repeat (a provider's card on every listing it appears in, a
 * service's filter panel, the site's header and footer), rendered by React once and kept as
 * markup, so a page's render places the string instead of rendering the same elements again
 * (docs/performance.md). A fragment is keyed by its name and the JSON of its props, which are
 * all that shape it: a changed entity or flag is another key, so no purge or data change can
 * ever get an old fragment, and old keys fall out as the least recently used. Rendered before
 * the page, never inside its render (React's renderers are not reentrant). One per app
 * (src/memory.ts).
 */
export class Fragments {
  readonly #kept = new LRUCache<string, string>({
    maxSize: MAX_SIZE,
    sizeCalculation: (html, key) => html.length + key.length,
  })

  /** Keys of a page's own content rendered once, not kept (`sections`). */
  readonly #seen = new LRUCache<string, true>({
    maxSize: MAX_SEEN,
    sizeCalculation: (_, key) => key.length,
  })

  /**
   * The markup of each of a page's own sections, `[id, fragment]`, under `markupKey(id)`: all
   * shaped by `body()` (made only to render them here), whose JSON (`json`, each section's key)
   * keys them. None on
   * the content's first render in the isolate, only its key noted: what only one page shows
   * costs more rendered apart than in the page, which only a repeat render earns back, so a
   * first render (what a crawler walking the long tail gets) renders them in the page, and the
   * next ones place them.
   */
  sections<B extends object>(
    name: string,
    sections: readonly (readonly [string, Fragment<{ body: B }>])[],
    body: () => B,
    json: string,
    markupKey: (id: string) => string,
  ): [string, string][] {
    const key = `${name}:${json}`
    if (!this.#seen.has(key)) {
      this.#seen.set(key, true)
      return []
    }
    const props = { body: body() }
    return sections.map(([id, section]) => [markupKey(id), this.html(section, props, json)])
  }

  /**
   * The markup of `fragment` with `props`, from memory when rendered before. `key`: the
   * fragment's key of these props, when the caller has it already.
   */
  html<P extends object>(fragment: Fragment<P>, props: P, key = fragment.key(props)): string {
    const { name, Component } = fragment
    return this.made(`${name}:${key}`, () => renderToString(createElement(Component, props)))
  }

  /** Markup `make` writes (from another fragment), kept under `key` as `html()`'s is. */
  made(key: string, make: () => string): string {
    let html = this.#kept.get(key)
    if (html === undefined) {
      html = make()
      this.#kept.set(key, html)
    }
    return html
  }
}
