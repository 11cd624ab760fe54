import type { Service } from '../../catalog/services'
import type { RateStats } from '../../data/service-stats'
import { count, monthYear, rateAverage, rateRange } from '../parts/format'

/** Local rates against the national figure, from service_city_stats. */
export function RateSummary({
  service,
  place,
  local,
  national,
  guide,
}: {
  service: Service
  place: string
  local: RateStats
  national: RateStats | null
  /** The cost guide of the service in this city, when it has one worth reading. */
  guide: string | null
}) {
  const diff = national ? (local.rateAvg - national.rateAvg) / national.rateAvg : 0
  const comparison =
    Math.abs(diff) < 0.005
      ? 'about the same'
      : `${Math.round(Math.abs(diff) * 100)}% ${diff > 0 ? 'higher' : 'lower'}`
  return (
    <section className="rates" aria-labelledby="rates-title">
      <h2 id="rates-title">{`What ${service.nouns} cost in ${place}`}</h2>
      <p>
        {'Average rate: '}
        <strong>{rateAverage(local.rateAvg, local.payUnit)}</strong>
        {` (range ${rateRange(local.rateMin, local.rateMax, local.payUnit)}).`}
      </p>
      {national ? (
        <p>{`National average: ${rateAverage(national.rateAvg, national.payUnit)}, so ${place} is ${comparison}.`}</p>
      ) : null}
      {guide ? (
        <p>
          <a href={guide}>{`Read the ${service.title.toLowerCase()} cost guide for ${place}`}</a>
        </p>
      ) : null}
      <p className="lede">
        {`Based on ${count(local.providers, 'caregiver profile', 'caregiver profiles')}, ${monthYear(local.updatedAt)}.`}
      </p>
    </section>
  )
}
