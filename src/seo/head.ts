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
