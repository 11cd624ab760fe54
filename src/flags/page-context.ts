import type { PageKind } from '../catalog/enums'
import type { Shaping } from './definitions'
import { DOCUMENT_FLAGS } from './definitions'
import type { Target } from './evaluate'

/**
 * What the page table (src/pages.ts) tells of the page a request asks for: what flag rules
 * target (page type, service, city, state, from the route's parameters), the flags and
 * configuration keys that shape it (its variant keys on exactly these), and its analytics
 * page kind. Known before any storage read.
 */
export interface PageContext {
  target: Target
  shapedBy: readonly Shaping[]
  pageKind: PageKind | null
}

/** A request no row of the table matches: it can only be answered by an error page. */
export const NO_PAGE: PageContext = {
  target: {},
  shapedBy: DOCUMENT_FLAGS,
  pageKind: null,
}
