// Where the visitor flow sends a visitor back to (docs/pages.md, "Visitor flow"): every call to
// action into the flow carries the page it came from as `from`, and the flow's last step returns
// there. The value comes from the query, so anyone can write it: only a path of this site that
// the page table serves is ever followed, and anything else is ignored, never an error.

/** The query parameter (and hidden form field) that carries the page a visitor came from. */
export const FROM = 'from'

/** Whether the page table serves `path` as a page a visitor can be sent back to. */
export type ServesPage = (path: string) => boolean

// Our canonical paths are lowercase slugs joined by single slashes, nothing else: this shape
// alone rules out a scheme, a host (`//`), backslashes, dots, escapes, control characters and a
// query. `/` is the site's root.
const PAGE_PATH = /^\/(?:[a-z0-9]+(?:[-/][a-z0-9]+)*)?$/
const MAX_LENGTH = 300

/** `value` when it is a same-site path the site serves as a page; null for anything else. */
export function returnPathOf(value: string | null | undefined, serves: ServesPage): string | null {
  if (!value || value.length > MAX_LENGTH || !PAGE_PATH.test(value)) return null
  return serves(value) ? value : null
}
