import type { IndexDecision } from './indexability'
import { robotsOf } from './indexability'
import type { Crumb } from './json-ld'
import { breadcrumbList } from './json-ld'

/** Everything the document head states; built by the route, rendered by views/document.tsx. */
export interface Head {
  title: string
  description: string
  /** Absolute, from PUBLIC_ORIGIN, never from the Host header. Error pages have none. */
  canonical?: string
  robots: string
  jsonLd: readonly object[]
  ogType?: 'website' | 'profile'
}

export const SITE_NAME = 'Care Marketplace'

/** An absolute URL on the public origin; `origin` has no trailing slash. */
export function absoluteUrl(origin: string, pathAndQuery: string): string {
  return origin.replace(/\/+$/, '') + pathAndQuery
}

/** Longest title and description search results show without cutting them. */
export const MAX_TITLE = 70
const MAX_DESCRIPTION = 160

/** The page's title, followed by the site's name when both fit in a search result. */
export function pageTitle(title: string): string {
  const named = `${title} | ${SITE_NAME}`
  return named.length <= MAX_TITLE ? named : title
}

/** A meta description, cut at a word and marked with an ellipsis when it is too long. */
export function metaDescription(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  if (clean.length <= MAX_DESCRIPTION) return clean
  const cut = clean.slice(0, MAX_DESCRIPTION - 1)
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[\s,.;:–-]+$/, '')}…`
}

/** What a route says about its page, for `pageHead`. */
export interface PageHeadInput {
  /** The page's own title; the site's name follows it when both fit. */
  title: string
  description: string
  /** The canonical path, with its query if it has one. */
  path: string
  /** Whether the page is indexable: its robots meta says the same as its X-Robots-Tag. */
  decision: IndexDecision
  /** The visible breadcrumbs, stated as a BreadcrumbList after `jsonLd`; null: none stated. */
  crumbs: readonly Crumb[] | null
  /** Structured data about what the page shows (an entity, its events). */
  jsonLd?: readonly object[]
  ogType?: Head['ogType']
}

/** The head of a page: canonical on the public origin, robots from the indexability rule. */
export function pageHead(origin: string, page: PageHeadInput): Head {
  return {
    title: pageTitle(page.title),
    description: page.description,
    canonical: absoluteUrl(origin, page.path),
    robots: robotsOf(page.decision),
    jsonLd: [...(page.jsonLd ?? []), ...(page.crumbs ? [breadcrumbList(origin, page.crumbs)] : [])],
    ...(page.ogType ? { ogType: page.ogType } : {}),
  }
}
