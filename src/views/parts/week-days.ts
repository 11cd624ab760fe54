import { WEEKDAYS } from '../../catalog/enums'

/**
 * The days of an availability bitmask (bit i is WEEKDAYS[i], Monday first) as people say them:
 * runs of three or more as "Monday to Friday", every day as "every day", null for none.
 */
export function weekDays(mask: number): string | null {
  const on = WEEKDAYS.map((_, i) => (mask & (2 ** i)) !== 0)
  if (on.every(Boolean)) return 'every day'
  const runs: string[] = []
  for (let i = 0; i < on.length; i++) {
    if (!on[i]) continue
    let end = i
    while (on[end + 1]) end++
    const first = WEEKDAYS[i]?.label ?? ''
    const last = WEEKDAYS[end]?.label ?? ''
    if (end - i >= 2) runs.push(`${first} to ${last}`)
    else runs.push(...WEEKDAYS.slice(i, end + 1).map((d) => d.label))
    i = end
  }
  if (!runs.length) return null
  return runs.length === 1
    ? (runs[0] ?? '')
    : `${runs.slice(0, -1).join(', ')} and ${runs[runs.length - 1] ?? ''}`
}
