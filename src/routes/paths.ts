import { JOB_SERVICES } from '../catalog/jobs'
import { SERVICES } from '../catalog/services'

// URL shapes of SPEC section 3: the Hono patterns that route them and the builders of links.

// Alternatives are grouped: Hono joins param patterns into one regular expression.
const SERVICE = `(?:${SERVICES.map((s) => s.slug).join('|')})`
const JOB_SERVICE = `(?:${JOB_SERVICES.map((j) => j.slug).join('|')})`
// An entity: an optional name part, then the id (`/p/123` redirects to its canonical URL).
const ENTITY = '(?:[a-z0-9]+-)*[0-9]+'
const STATE = '[a-z][a-z]'
const CITY = '[a-z0-9]+(?:-[a-z0-9]+)*-[a-z][a-z]'

export const PATTERNS = {
  serviceNational: `/:service{${SERVICE}}`,
  serviceState: `/:service{${SERVICE}}/:state{${STATE}}`,
  serviceCity: `/:service{${SERVICE}}/:city{${CITY}}`,
  jobListing: `/:jobService{${JOB_SERVICE}}/:city{${CITY}}`,
  cityHub: `/local/:city{${CITY}}`,
  provider: `/p/:slug{${ENTITY}}`,
  job: `/job/:slug{${ENTITY}}`,
} as const

export const servicePath = (service: string) => `/${service}`
export const statePath = (service: string, stateCode: string) =>
  `/${service}/${stateCode.toLowerCase()}`
export const cityPath = (service: string, citySlug: string) => `/${service}/${citySlug}`
export const providerPath = (p: { nameSlug: string; id: number }) => `/p/${p.nameSlug}-${p.id}`
export const jobPath = (j: { titleSlug: string; id: number }) => `/job/${j.titleSlug}-${j.id}`
export const jobListingPath = (jobService: string, citySlug: string) => `/${jobService}/${citySlug}`
export const cityHubPath = (citySlug: string) => `/local/${citySlug}`

/** The id at the end of an entity URL's last segment (`maria-g-123` → 123). */
export function entityId(slug: string): number | null {
  const m = /(?:^|-)([0-9]{1,15})$/.exec(slug)
  return m ? Number(m[1]) : null
}
export const flowPath = (segment: string) => `/us-subscription/segment/nonmember/${segment}`
