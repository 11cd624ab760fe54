import type { Service } from '../../catalog/services'
import type { RateStats } from '../../data/service-stats'
import { count, listOf, number, rateAverage, rateRange } from './format'

/** A question a page's searchers ask, and its answer from the page's own figures. */
export interface Answer {
  question: string
  answer: string
}

/** Where the visitor goes next to find one near them: what the page itself offers. */
export type NextStep =
  /** A directory: its filters, by label. */
  | { kind: 'directory'; filters: readonly string[] }
  /** A state page: its cities with providers, largest first. */
  | { kind: 'state'; cities: readonly { name: string; providers: number }[] }
  /** A cost guide: the directory it links to, if any. */
  | { kind: 'guide'; directory: string | null }

export interface AnswerFacts {
  service: Pick<Service, 'noun' | 'nouns'>
  /** "Atlanta, GA", "Georgia", "the US". */
  place: string
  stats: RateStats
  /** The national figures to compare the rate with; null on national pages. */
  national: RateStats | null
  /** False where the page answers the cost itself (a cost guide's heading and lede). */
  cost: boolean
  next: NextStep
}

/**
 * The few questions people search for about a service in a place (what it costs, background
 * checks, reviews, finding one nearby), answered in sentences made from the place's figures, so
 * no two places read alike (docs/pages.md, "Answers"). None without providers.
 */
export function answersOf(facts: AnswerFacts): Answer[] {
  const { service, place, stats } = facts
  if (stats.providers === 0) return []
  const a = /^[aeiou]/i.test(service.noun) ? 'an' : 'a'
  return [
    facts.cost
      ? {
          question: `How much does ${a} ${service.noun} cost in ${place}?`,
          answer: costAnswer(facts),
        }
      : null,
    {
      question: `How many ${service.nouns} in ${place} have background checks?`,
      answer: checkedAnswer(facts),
    },
    {
      question: `What do families say about ${service.nouns} in ${place}?`,
      answer: reviewAnswer(facts),
    },
    {
      question: `How do I find ${a} ${service.noun} near me?`,
      answer: nextAnswer(facts),
    },
  ].filter((answer) => answer !== null)
}

/** "Of the 120 babysitters in Atlanta, GA,": before a part of them. */
function ofAll({ service, place, stats }: AnswerFacts): string {
  return `Of the ${number(stats.providers)} ${service.nouns} in ${place},`
}

function costAnswer({ service, place, stats, national }: AnswerFacts): string {
  const rate = (v: number) => rateAverage(v, stats.payUnit)
  const range = rateRange(stats.rateMin, stats.rateMax, stats.payUnit)
  const base =
    stats.providers === 1
      ? `The one ${service.noun} with a profile in ${place} asks ${range}.`
      : `${service.nouns.charAt(0).toUpperCase()}${service.nouns.slice(1)} in ${place} ask ${rate(stats.rateAvg)} on average, from ${range} across ${count(stats.providers, 'profile', 'profiles')}.`
  if (!national || national.payUnit !== stats.payUnit) return base
  const diff = Math.round(((stats.rateAvg - national.rateAvg) / national.rateAvg) * 100)
  const versus =
    diff === 0
      ? `about the national average of ${rate(national.rateAvg)}`
      : `${Math.abs(diff)}% ${diff > 0 ? 'above' : 'below'} the national average of ${rate(national.rateAvg)}`
  return `${base} That is ${versus}.`
}

function checkedAnswer(facts: AnswerFacts): string {
  const { service, place, stats } = facts
  const { providers: n, checked: k } = stats
  if (n === 1)
    return k
      ? `The one ${service.noun} in ${place} has passed a background check.`
      : `The one ${service.noun} in ${place} has not passed a background check yet.`
  const check = 'passed a background check'
  if (k === 0) return `None of the ${number(n)} ${service.nouns} in ${place} has ${check} yet.`
  const badge = `the "Background check" badge`
  if (k === n)
    return `All ${number(n)} ${service.nouns} in ${place} have ${check}: every card carries ${badge}.`
  const share = Math.round((k / n) * 100)
  return k === 1
    ? `${ofAll(facts)} one has ${check}; its card carries ${badge}.`
    : `${ofAll(facts)} ${number(k)} (${share}%) have ${check}; their cards carry ${badge}.`
}

function reviewAnswer(facts: AnswerFacts): string {
  const { service, place, stats } = facts
  const { providers: n, reviewed: r, reviews, ratingAvg } = stats
  if (r === 0 || ratingAvg === null)
    return n === 1
      ? `The one ${service.noun} in ${place} has no review yet.`
      : `None of the ${number(n)} ${service.nouns} in ${place} has a review yet.`
  const rating = `${ratingAvg.toFixed(1)} out of 5`
  const reviewedOf =
    r === n
      ? n === 1
        ? `The one ${service.noun} in ${place} has`
        : `All ${number(n)} ${service.nouns} in ${place} have`
      : `${ofAll(facts)} ${r === 1 ? 'one has' : `${number(r)} have`}`
  return reviews === 1
    ? `${reviewedOf} a review from a family, rated ${rating}.`
    : `${reviewedOf} reviews from families: ${number(reviews)} in all, rated ${rating} on average.`
}

function nextAnswer({ service, place, stats, next }: AnswerFacts): string {
  const search = `type your city or ZIP code in the search above to reach the nearest city with ${service.nouns}`
  const these = count(stats.providers, service.noun, service.nouns)
  switch (next.kind) {
    case 'directory':
      return `Filter the ${these} in ${place} by ${listOf(next.filters)} (each card says how far away they are), or ${search}.`
    case 'state': {
      if (!next.cities.length) return `In ${place}, ${search}.`
      const largest = next.cities.slice(0, 3).map((c) => `${c.name} (${number(c.providers)})`)
      return `Pick one of the ${count(next.cities.length, 'city', 'cities')} below, the most are in ${listOf(largest)}, or ${search}.`
    }
    case 'guide':
      return next.directory
        ? `Compare the ${these} in ${place} by rate, reviews and experience on their directory, linked below.`
        : `Compare the ${these} in ${place} by rate, reviews and experience in the cities below.`
  }
}

/** The answers as a section of plain headings and paragraphs. */
export function Answers({ title, answers }: { title: string; answers: readonly Answer[] }) {
  if (!answers.length) return null
  return (
    <section className="answers" aria-labelledby="answers-title">
      <h2 id="answers-title">{title}</h2>
      {answers.map((a) => (
        <div key={a.question}>
          <h3>{a.question}</h3>
          <p>{a.answer}</p>
        </div>
      ))}
    </section>
  )
}
