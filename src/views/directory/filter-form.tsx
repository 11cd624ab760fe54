import { DISTANCES, EXPERIENCE_YEARS, RATE_BANDS } from '../../catalog/filters'
import type { Service } from '../../catalog/services'
import type { ListingQuery } from '../../routes/listing-query'
import { maskParams } from '../../routes/listing-query'

const LIST_LEGENDS: Record<string, string> = {
  availability: 'Available on',
  ages: 'Ages',
  services: 'Services',
  subjects: 'Subjects',
  schedule: 'Schedule',
  badges: 'Badges',
}

/**
 * The filters a service offers, as a plain GET form: it works without JavaScript, and what it
 * submits is what listing-query.ts parses. Submitting starts again at page 1.
 */
export function FilterForm({
  service,
  query,
  action,
}: {
  service: Service
  query: ListingQuery
  action: string
}) {
  const offers = (t: string) => service.filters.some((f) => f === t)
  const active =
    [query.distance, query.rate, query.experience].filter((v) => v !== null).length +
    maskParams(service).filter(({ field }) => query[field] !== 0).length
  return (
    <details className="filters">
      <summary>{`Filters${active ? ` (${active})` : ''}`}</summary>
      <form method="get" action={action}>
        {offers('DISTANCE') ? (
          <label className="field">
            Distance
            <select name="distance" defaultValue={query.distance ?? ''}>
              <option value="">Any distance</option>
              {DISTANCES.map((d) => (
                <option key={d} value={d}>
                  {`Within ${d} ${d === 1 ? 'mile' : 'miles'}`}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {offers('PAY_RATE') ? (
          <label className="field">
            Hourly rate
            <select
              name="rate"
              defaultValue={query.rate ? `${query.rate.low}-${query.rate.high}` : ''}
            >
              <option value="">Any rate</option>
              {RATE_BANDS.map((b) => (
                <option key={b.value} value={b.value}>
                  {b.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {offers('YEARS_OF_EXPERIENCE') ? (
          <label className="field">
            Experience
            <select name="experience" defaultValue={query.experience ?? ''}>
              <option value="">Any</option>
              {EXPERIENCE_YEARS.map((y) => (
                <option key={y} value={y}>
                  {`${y}+ years`}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="field">
          Sort by
          <select name="sort" defaultValue={query.sort}>
            <option value="recommended">Recommended</option>
            <option value="newest">Newest</option>
          </select>
        </label>
        {maskParams(service).map(({ name, list, field }) => (
          <fieldset key={name} className="wide">
            <legend>{LIST_LEGENDS[name]}</legend>
            <div className="checks">
              {list.map((item, i) => (
                <label key={item.slug}>
                  <input
                    type="checkbox"
                    name={name}
                    value={item.slug}
                    defaultChecked={(query[field] & (2 ** i)) !== 0}
                  />
                  {` ${item.label}`}
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        <div className="filter-actions">
          <button type="submit">Show results</button>
          <a href={action}>Clear filters</a>
        </div>
      </form>
    </details>
  )
}
