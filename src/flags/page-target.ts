import { findActivityKeyword } from '../catalog/activities'
import { stateOfCitySlug } from '../catalog/cities'
import { findJobService } from '../catalog/jobs'
import { findService } from '../catalog/services'
import { pageOfDataPath } from '../urls/data-prefix'
import type { Target } from './evaluate'

/**
 * What a URL is about, for flag targeting: its page type, service (and vertical), city and
 * state, as far as the path names them. Known before any storage read, so the flags, and the
 * variant a cache would key on, are settled before the route runs. A page's state at
 * `/_data{path}` is about the same page.
 */
export function pageTarget(path: string): Target {
  const [first = '', second, third] = pageOfDataPath(path).split('/').filter(Boolean)
  const place = (slug: string | undefined) =>
    slug === undefined
      ? {}
      : /^[a-z]{2}$/.test(slug)
        ? { state: slug.toUpperCase() }
        : { city: slug, state: stateOfCitySlug(slug)?.toUpperCase() }
  const service = (slug: string | undefined) => {
    const s = findService(slug ?? '')
    return s ? { service: s.slug, vertical: s.vertical } : {}
  }
  if (first === 'p') return { pageType: 'seoProviderProfile' }
  if (first === 'job') return { pageType: 'seoJobDetail' }
  if (first === 'cost') return { pageType: 'costGuide', ...service(second), ...place(third) }
  if (first === 'explore')
    return findActivityKeyword(third ?? '') ? { pageType: 'campsAndActivities' } : {}
  if (first === 'local') return { pageType: 'seoSearchListing', ...place(second) }
  const jobs = findJobService(first)
  if (jobs) return { pageType: 'seoSearchListing', ...service(jobs.service.slug), ...place(second) }
  if (findService(first))
    return { pageType: 'seoSearchListing', ...service(first), ...place(second) }
  return {}
}
