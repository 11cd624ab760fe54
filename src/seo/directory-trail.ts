import { stateName } from '../catalog/states'
import { servicePath, statePath } from '../urls/paths'
import { stateInventory, worthListing } from './indexability'
import type { Crumb } from './json-ld'

/**
 * The breadcrumbs of the provider directory above a city: the service's national page, then its
 * state page when the rule lets it be linked (one of the state's cities is worth a link:
 * `largestCity` is how many providers of the service the largest has), then `below`.
 */
export function directoryTrail(
  service: { slug: string; title: string },
  state: { code: string; largestCity: number },
  below: readonly Crumb[],
): Crumb[] {
  return [
    { name: service.title, path: servicePath(service.slug) },
    ...(worthListing(stateInventory([state.largestCity]))
      ? [{ name: stateName(state.code) ?? state.code, path: statePath(service.slug, state.code) }]
      : []),
    ...below,
  ]
}
