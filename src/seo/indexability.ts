import { MIN_COST_SAMPLE } from '../catalog/cost-guides'
import type { On } from '../flags/visibility'
import { shownServices } from '../flags/visibility'

/**
 * Below this many results a page is thin: `noindex,follow`, out of sitemaps, unlinked. SQL that
 * picks pages worth a link or a sitemap entry filters on it too (`>= MIN_INDEXABLE_PROVIDERS`):
 * the same rule, where it runs in D1.
 */
export const MIN_INDEXABLE_PROVIDERS = 5

export type IndexReason = 'thin' | 'filtered' | 'expired' | 'private'

export type IndexDecision = { index: true } | { index: false; reason: IndexReason }

/** What the rule needs to know about a page; what a page type does not have is left out. */
export interface PageFacts {
  /** How many results the page shows (listings, hubs, guides); entity pages have none. */
  inventory?: number
  /** Any filter, or a sort other than the default. */
  filtered?: boolean
  /** A job past its closing moment. */
  expired?: boolean
  /** A step about one visitor (the visitor flow): never for an index. */
  private?: boolean
}

/**
 * The one rule that decides whether a page is indexable (docs/seo.md). The page's
 * robots meta and X-Robots-Tag, its x-seo-gate header, sitemap membership and every internal
 * link module use it, so nothing links to or lists a page that is noindex or empty. A page a
 * flag or configuration key turns off never gets here: it is a 404 and no link module names it
 * (src/flags/visibility.ts).
 */
export function decideIndexing(page: PageFacts): IndexDecision {
  if (page.private) return { index: false, reason: 'private' }
  if (page.expired) return { index: false, reason: 'expired' }
  if (page.filtered) return { index: false, reason: 'filtered' }
  if (page.inventory !== undefined && page.inventory < MIN_INDEXABLE_PROVIDERS)
    return { index: false, reason: 'thin' }
  return { index: true }
}

/** Whether a page with this many results may be linked to or listed in a sitemap. */
export function worthListing(inventory: number): boolean {
  return decideIndexing({ inventory }).index
}

/** A state page counts its cities' providers, once one of its cities is worth a link. */
export function stateInventory(cityProviders: readonly number[]): number {
  return cityProviders.some(worthListing) ? cityProviders.reduce((n, p) => n + p, 0) : 0
}

/** A city hub counts providers and open jobs, once one of its pages is worth a link. */
export function hubInventory(
  serviceProviders: readonly number[],
  jobCounts: readonly number[],
): number {
  const all = [...serviceProviders, ...jobCounts]
  return all.some(worthListing) ? all.reduce((n, p) => n + p, 0) : 0
}

/** A cost guide's figures mean something from MIN_COST_SAMPLE profiles on. */
export function costInventory(providers: number): number {
  return providers >= MIN_COST_SAMPLE ? providers : 0
}

/** Whether the page is noindex for having too few results: the page then says so. */
export function isThin(decision: IndexDecision): boolean {
  return !decision.index && decision.reason === 'thin'
}

export function robotsOf(decision: IndexDecision): string {
  return decision.index ? 'index,follow' : 'noindex,follow'
}

/** The `x-seo-gate` header: the decision and its reason. */
export function seoGateHeader(decision: IndexDecision): string {
  return decision.index ? 'index' : `noindex; reason=${decision.reason}`
}

/**
 * Whether a city's hub is indexable: on the providers of the shown services and the jobs it links
 * to. The hub's own rule, which every page linking a hub asks too.
 */
export function hubDecision(
  services: readonly { service: string; providers: number }[],
  jobs: readonly { jobs: number }[],
  on: On,
): IndexDecision {
  const shown = shownServices(on).map((s) => s.slug)
  return decideIndexing({
    inventory: hubInventory(
      services.filter((r) => shown.includes(r.service)).map((r) => r.providers),
      jobs.map((r) => r.jobs),
    ),
  })
}
