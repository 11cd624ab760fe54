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
