/** Below this many providers a listing is thin: `noindex,follow`, out of sitemaps, unlinked. */
export const MIN_INDEXABLE_PROVIDERS = 5

export type IndexDecision = { index: true } | { index: false; reason: 'thin' | 'filtered' }

/**
 * The one rule that decides whether a listing page is indexable (SPEC sections 4 and 5):
 * enough inventory, and not filtered or sorted. Link modules use the same threshold so
 * nothing links to a page this rule keeps out of the index.
 */
export function decideIndexing(page: { inventory: number; filtered: boolean }): IndexDecision {
  if (page.filtered) return { index: false, reason: 'filtered' }
  if (page.inventory < MIN_INDEXABLE_PROVIDERS) return { index: false, reason: 'thin' }
  return { index: true }
}

export function robotsOf(decision: IndexDecision): string {
  return decision.index ? 'index,follow' : 'noindex,follow'
}

/** The `x-seo-gate` header: the decision and its reason. */
export function seoGateHeader(decision: IndexDecision): string {
  return decision.index ? 'index' : `noindex; reason=${decision.reason}`
}
