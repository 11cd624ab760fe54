import { LRUCache } from 'lru-cache'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'

/** What an isolate's rendered fragments may hold in all (string length, about bytes). */
const MAX_SIZE = 4 * 1024 * 1024

/**
 * Fragments that many pages repeat (a provider's card is on every listing it appears in),
 * rendered by React once and kept as markup, so a page's render places the string instead of
 * rendering the same elements again (docs/performance.md). A fragment is keyed by everything
 * that shapes its markup (its model's JSON): a changed entity or flag is another key, so no
 * purge or data change can ever get an old fragment, and old keys fall out as the least
 * recently used. One per app (src/request/memory.ts).
 */
export class Fragments {
  readonly #kept = new LRUCache<string, string>({
    maxSize: MAX_SIZE,
    sizeCalculation: (html, key) => html.length + key.length,
  })

  /** The markup of `render()`, from memory when `key` was rendered before. */
  html(key: string, render: () => ReactElement): string {
    let html = this.#kept.get(key)
    if (html === undefined) {
      html = renderToString(render())
      this.#kept.set(key, html)
    }
    return html
  }
}
