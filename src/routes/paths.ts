import { SERVICES } from '../catalog/services'

// URL shapes of SPEC section 3: the Hono patterns that route them and the builders of links.

// Alternatives are grouped: Hono joins param patterns into one regular expression.
const SERVICE = `(?:${SERVICES.map((s) => s.slug).join('|')})`
const STATE = '[a-z][a-z]'
const CITY = '[a-z0-9]+(?:-[a-z0-9]+)*-[a-z][a-z]'

export const PATTERNS = {
  serviceNational: `/:service{${SERVICE}}`,
  serviceState: `/:service{${SERVICE}}/:state{${STATE}}`,
  serviceCity: `/:service{${SERVICE}}/:city{${CITY}}`,
} as const

export const servicePath = (service: string) => `/${service}`
export const statePath = (service: string, stateCode: string) =>
  `/${service}/${stateCode.toLowerCase()}`
export const cityPath = (service: string, citySlug: string) => `/${service}/${citySlug}`
export const providerPath = (p: { nameSlug: string; id: number }) => `/p/${p.nameSlug}-${p.id}`
export const flowPath = (segment: string) => `/us-subscription/segment/nonmember/${segment}`
