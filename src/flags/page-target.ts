import type { PageType } from '../catalog/enums'
import { stateOfCitySlug } from '../catalog/cities'
import { findJobService } from '../catalog/jobs'
import { findService } from '../catalog/services'
import type { Target } from './evaluate'

/**
 * What a routed URL is about, for flag targeting and analytics: its row's page type, and the
 * service (with its vertical), city and state its parameters name. Known before any storage
 * read, so the flags, and the variant a cache keys on, are settled before the route runs.
 */
export function pageTarget(
  pageType: PageType | null,
  params: Readonly<Record<string, string | undefined>>,
): Target {
  if (!pageType) return {}
  const service =
    findService(params.service ?? '') ?? findJobService(params.jobService ?? '')?.service
  const state = params.state ?? (params.city ? stateOfCitySlug(params.city) : undefined)
  return {
    pageType,
    ...(service && { service: service.slug, vertical: service.vertical }),
    ...(params.city && { city: params.city }),
    ...(state && { state: state.toUpperCase() }),
  }
}
