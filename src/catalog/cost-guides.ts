import { SERVICES } from './services'

/** The product's eight cost guide services (docs/pages.md, "Cost guides"). */
export const COST_GUIDE_SERVICES = SERVICES.filter((s) => s.costGuide)

/** Years of experience, grouped the way cost guides compare rates. */
export const EXPERIENCE_BANDS = [
  { label: 'Under 3 years', min: 0, max: 2 },
  { label: '3–5 years', min: 3, max: 5 },
  { label: '6–9 years', min: 6, max: 9 },
  { label: '10+ years', min: 10, max: 99 },
] as const

/** Below this many rates a city's figures are too uncertain to index; the page says so. */
export const MIN_COST_SAMPLE = 10
