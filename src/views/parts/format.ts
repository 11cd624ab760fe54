import type { PayUnit } from '../../catalog/enums'

const UNIT_LABEL: Record<PayUnit, string> = {
  hr: 'hr',
  day: 'day',
  wk: 'wk',
  mo: 'mo',
  flat: 'flat fee',
  night: 'night',
  session: 'session',
}

// Formatters are built once: building one per call (what toLocaleString does) was the largest
// CPU cost of a listing page.
const NUMBER = new Intl.NumberFormat('en-US')
const money = (digits: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  })
const DOLLARS = money(0)
const DOLLARS_AND_CENTS = money(2)
const MONTH_YEAR = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
})
const LONG_DATE = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
})

/** How many numbers each formatter keeps formatted (counts, years, rates, averages). */
const KEPT = 10_000

/**
 * `format`, each number formatted once while kept: every card formats counts and rates that
 * other pages format too, and a page writes its average in several places (about half a
 * microsecond to several each with Intl), so a city's first render finds most of them formatted.
 */
function formattedOnce(format: Intl.NumberFormat): (n: number) => string {
  const formatted = new Map<number, string>()
  return (n) => {
    // A Map's key takes -0 for 0, which Intl writes as "-0".
    if (Object.is(n, -0)) return format.format(n)
    let text = formatted.get(n)
    if (text === undefined) {
      if (formatted.size >= KEPT) formatted.clear()
      text = format.format(n)
      formatted.set(n, text)
    }
    return text
  }
}
const formattedDollars = formattedOnce(DOLLARS)
const formattedCents = formattedOnce(DOLLARS_AND_CENTS)

/** "12,345" */
export const number = formattedOnce(NUMBER)

export function dollars(amount: number, cents = false): string {
  return cents ? formattedCents(amount) : formattedDollars(amount)
}

/** "$15–$22/hr", or "$18/hr" when the range is one value. */
export function rateRange(min: number, max: number, unit: PayUnit): string {
  const range = min === max ? dollars(min) : `${dollars(min)}–${dollars(max)}`
  return `${range}/${UNIT_LABEL[unit]}`
}

/** "$17.25/hr": an average keeps its cents. */
export function rateAverage(avg: number, unit: PayUnit): string {
  return `${dollars(Math.round(avg * 100) / 100, true)}/${UNIT_LABEL[unit]}`
}

export function count(n: number, one: string, many: string): string {
  return `${number(n)} ${n === 1 ? one : many}`
}

/** "1 year experience", "6 years in business": how long a provider has done the work. */
export function yearsOf(years: number, business: boolean): string {
  return `${count(years, 'year', 'years')} ${business ? 'in business' : 'experience'}`
}

/** "Maria G.": first name and last initial, as the marketplace shows people. */
export function displayName(p: { firstName: string; lastName: string }): string {
  return `${p.firstName} ${p.lastName.charAt(0)}.`
}

export function initials(name: string): string {
  const words = name.split(/\s+/).filter((w) => /^[\p{L}\p{N}]/u.test(w))
  return (
    (words[0]?.[0] ?? '') + (words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '')
  ).toUpperCase()
}

export function miles(m: number): string {
  return `${m < 10 ? m.toFixed(1) : Math.round(m)} mi`
}

/** Each month's "November 2026", by its number since year 0 in UTC, written once. */
const months = new Map<number, string>()

/**
 * "November 2026": the date behind figures, written once a month: each city's figures have their
 * own instant, but most pages' fall in a few months (a format is several microseconds with Intl).
 */
export function monthYear(iso: string): string {
  const date = new Date(iso)
  const month = date.getUTCFullYear() * 12 + date.getUTCMonth()
  // An invalid date (NaN) is formatted as it always was: Intl throws.
  if (Number.isNaN(month)) return MONTH_YEAR.format(date)
  let text = months.get(month)
  if (text === undefined) {
    text = MONTH_YEAR.format(date)
    months.set(month, text)
  }
  return text
}

/** "November 30, 2026" for a date or an instant, read in UTC. */
export function longDate(isoDate: string): string {
  return LONG_DATE.format(new Date(isoDate.length === 10 ? `${isoDate}T00:00:00Z` : isoDate))
}

/** "Posted today", "Posted 3 days ago", "Posted 2 weeks ago". */
export function postedAgo(iso: string, now: Date): string {
  const days = Math.max(0, Math.floor((now.getTime() - Date.parse(iso)) / 86_400_000))
  if (days === 0) return 'Posted today'
  if (days === 1) return 'Posted yesterday'
  if (days < 14) return `Posted ${days} days ago`
  return `Posted ${Math.floor(days / 7)} weeks ago`
}

/** A job's start: its date, or "as soon as possible" once that date has passed. */
export function startLabel(startDate: string, now: Date): string {
  return startDate < now.toISOString().slice(0, 10) ? 'As soon as possible' : longDate(startDate)
}

const AND_LIST = new Intl.ListFormat('en-US', { style: 'long', type: 'conjunction' })

/** "Babysitters, nannies and tutors": a list in a sentence (no serial comma, as the pages write). */
export function listOf(items: readonly string[]): string {
  return AND_LIST.format(items).replace(/, and /, ' and ')
}
