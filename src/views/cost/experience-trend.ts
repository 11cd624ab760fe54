export interface BandRate {
  /** "Under 3 years", "10+ years": the band as the page labels it. */
  label: string
  /** The band's average rate; null when no profile of the band lists one. */
  value: number | null
}

/**
 * What the rates by experience say, in one or two sentences derived from the bands as shown
 * (rates compared in whole cents, as the page prints them): more only when every band with
 * rates charges more than the one before, and the bands without rates named.
 */
export function experienceTrend(
  bands: readonly BandRate[],
  nouns: string,
  where: string,
  format: (value: number) => string,
): string {
  const known = bands.flatMap(({ label, value }) =>
    value === null ? [] : [{ label, value, cents: cents(value) }],
  )
  const missing = bands.filter((b) => b.value === null).map((b) => b.label.toLowerCase())
  const gaps = missing.length
    ? ` No ${nouns} with ${orList(missing)} of experience list a rate yet.`
    : ''
  const first = known[0]
  const last = known[known.length - 1]
  if (!first || !last) return `No ${nouns} in ${where} list a rate by experience yet.`
  if (first === last)
    return `Only ${nouns} with ${first.label.toLowerCase()} of experience list a rate in ${where} so far (${format(first.value)}), so there is nothing to compare yet.${gaps}`
  const steps = known.slice(1).map((b, i) => b.cents - (known[i]?.cents ?? 0))
  const span = `${format(first.value)} with ${first.label.toLowerCase()} of experience, ${format(last.value)} with ${last.label.toLowerCase()}`
  if (steps.every((d) => d === 0))
    return `In ${where}, ${nouns} charge the same whatever their experience: ${format(first.value)}.${gaps}`
  if (steps.every((d) => d > 0))
    return `In ${where}, more experienced ${nouns} charge more: ${span}.${gaps}`
  if (steps.every((d) => d < 0))
    return `In ${where}, more experienced ${nouns} charge less: ${span}.${gaps}`
  const each = known.map((b) => `${format(b.value)} with ${b.label.toLowerCase()}`).join(', ')
  return `In ${where}, rates do not rise steadily with experience: ${each}.${gaps}`
}

function cents(value: number): number {
  return Math.round(value * 100)
}

function orList(items: readonly string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] ?? ''}`
}
