import { LRUCache } from 'lru-cache'
import type { ComponentType } from 'react'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server.node'

const encoder = new TextEncoder()

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
  /** Each fragment's UTF-8, by its markup: what a streamed page splices in (src/views/splice.ts). */
  readonly #bytes = new Map<string, Uint8Array>()
  readonly #kept = new LRUCache<string, string>({
    maxSize: MAX_SIZE,
    sizeCalculation: (html, key) => 2 * html.length + key.length,
    dispose: (html) => this.#bytes.delete(html),
  })

  /** Keys of a page's own content rendered once, not kept (`sections`). */
  readonly #seen = new LRUCache<string, true>({
    maxSize: MAX_SEEN,
    sizeCalculation: (_, key) => key.length,
  })

  /**
   * The markup of each of a page's own sections, `[id, Component]`, under `markupKey(id)`: all
   * shaped by `body()` (made only to render them here), whose JSON (`json`) keys them. None on
   * the content's first render in the isolate, only its key noted: what only one page shows
   * costs more rendered apart than in the page, which only a repeat render earns back, so a
   * first render (what a crawler walking the long tail gets) renders them in the page, and the
   * next ones place them.
   */
  sections<B>(
    name: string,
    sections: readonly (readonly [string, ComponentType<{ body: B }>])[],
    { body, json }: { body: () => B; json: string },
    markupKey: (id: string) => string,
  ): [string, string][] {
    const key = `${name}:${json}`
    if (!this.#seen.has(key)) {
      this.#seen.set(key, true)
      return []
    }
    const props = { body: body() }
    return sections.map(([id, Component]) => [
      markupKey(id),
      this.html(`${name}-${id}`, Component, props, json),
    ])
  }

  /**
   * The markup of `<Component {...props} />`, from memory when rendered before. `json`: the
   * JSON of what shapes it, when the caller has it already.
   */
  html<P extends object>(
    name: string,
    Component: ComponentType<P>,
    props: P,
    json = JSON.stringify(props),
  ): string {
    return this.made(`${name}:${json}`, () => renderToString(createElement(Component, props)))
  }

  /** Markup `make` writes (from another fragment), kept under `key` as `html()`'s is. */
  made(key: string, make: () => string): string {
    let html = this.#kept.get(key)
    if (html === undefined) {
      html = make()
      this.#kept.set(key, html)
      this.#bytes.set(html, encoder.encode(html))
    }
    return html
  }

  /**
   * The UTF-8 of markup `html()` returned, encoded once. Looked up by the string itself, which
   * costs little for the very string `html()` returned (V8 keeps a string's hash).
   */
  bytes(html: string): Uint8Array {
    return this.#bytes.get(html) ?? encoder.encode(html)
  }
}
