import { findJobService } from '../catalog/jobs'
import { findSegment } from '../catalog/segments'
import { findService } from '../catalog/services'
import { pageOfDataPath } from '../urls/data-prefix'

/**
 * The kinds of page a URL can be (src/routes/paths.ts), finer than the analytics page types:
 * each flag and configuration key declares the ones it shapes (src/flags/definitions.ts), and
 * a response's variant keys on exactly those.
 */
export const SURFACES = [
  'serviceNational',
  'serviceState',
  'directory',
  'jobListing',
  'cityHub',
  'profile',
  'job',
  'costNational',
  'costCity',
  'activities',
  'segment',
  'flow',
  'sitemap',
  'other',
] as const

export type Surface = (typeof SURFACES)[number]

/** Every page, the XML and text files for crawlers included. */
export const EVERY_PAGE: readonly Surface[] = SURFACES
/** Every page rendered through the HTML document (its header, theme, scripts). */
export const HTML_PAGES: readonly Surface[] = SURFACES.filter((s) => s !== 'sitemap')

/** The surface of a path; a page's state at `/_data{path}` is the same page's. */
export function pageSurface(path: string): Surface {
  const page = pageOfDataPath(path)
  if (page === '/sitemap.xml' || page === '/robots.txt') return 'sitemap'
  const [first = '', second, third] = page.split('/').filter(Boolean)
  if (first === 'sitemaps') return 'sitemap'
  if (first === 'p') return 'profile'
  if (first === 'job') return 'job'
  if (first === 'cost') return third === undefined ? 'costNational' : 'costCity'
  if (first === 'explore') return 'activities'
  if (first === 'local') return 'cityHub'
  if (first === 'us-subscription') return 'flow'
  if (findJobService(first)) return 'jobListing'
  if (findService(first)) {
    if (second === undefined) return 'serviceNational'
    return /^[a-z]{2}$/.test(second) ? 'serviceState' : 'directory'
  }
  if (findSegment(first)) return 'segment'
  return 'other'
}
