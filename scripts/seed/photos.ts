// Which seeded providers have a photo, and where the portraits are (drawn by
// scripts/portraits.ts, written by `npm run build`; docs/pages.md, "Photos").

/** How many portraits there are: a provider with a photo gets one of them by its id. */
export const PORTRAIT_COUNT = 6

/** Where a portrait is served: a fixed path, since the catalog stores it. */
export const portraitPath = (n: number) => `/photos/portrait-${n}.png`

// The origin of wrangler.toml's local vars (PUBLIC_ORIGIN): the photos are the site's own.
const SEED_ORIGIN = 'https://www.care.example'

/**
 * Three caregivers in ten have a photo; businesses and the rest draw initials. By id, so the
 * generator's random sequence, and every other field, stays as it was.
 */
export function photoOf(id: number, smb: boolean): string | null {
  return !smb && id % 10 < 3 ? `${SEED_ORIGIN}${portraitPath(id % PORTRAIT_COUNT)}` : null
}
