import type { PayUnit } from '../../catalog/enums'
import type { Service } from '../../catalog/services'
import type { Crumb } from '../../seo/json-ld'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { CallToAction } from '../parts/call-to-action'
import { count, monthYear, rateAverage, rateRange } from '../parts/format'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'
import type { Answer } from '../parts/answers'
import { Answers } from '../parts/answers'
import type { Bar } from './bar-chart'
import { BarChart } from './bar-chart'
import { experienceTrend } from './experience-trend'

export interface CostFigures {
  average: number
  min: number
  max: number
  payUnit: PayUnit
  sample: number
  updatedAt: string
  /** The national figure; null on the national guide itself. */
  national: number | null
  /** The product's comparison direction, and by how much, against the national average. */
  direction: 'HIGHER' | 'LOWER' | null
  percent: number
}

export interface ExperienceRow {
  label: string
  local: number | null
  national: number | null
}

export interface CostGuidePageProps {
  crumbs: readonly Crumb[]
  service: Service
  /** "Atlanta, GA", or null for the national guide. */
  place: string | null
  figures: CostFigures
  comparison: readonly Bar[]
  /** What the comparison's other bars are: "other cities in Georgia and the nearest large cities". */
  comparedWith: string
  experience: readonly ExperienceRow[]
  thin: boolean
  directory: LinkItem | null
  cities: readonly LinkItem[]
  others: readonly LinkItem[]
  answers: readonly Answer[]
}

/** The guide's figures: the average, the range and, beside the national one, the comparison. */
function FigureList({ figures: f, rate }: { figures: CostFigures; rate: (v: number) => string }) {
  return (
    <ul className="figures">
      <li>
        {'Average rate'}
        <strong>{rate(f.average)}</strong>
      </li>
      <li>
        {'Range'}
        <strong>{rateRange(f.min, f.max, f.payUnit)}</strong>
      </li>
      {f.national !== null ? (
        <li>
          {'National average'}
          <strong>{rate(f.national)}</strong>
        </li>
      ) : null}
      {f.national !== null ? (
        <li>
          {'Compared with national'}
          <strong>
            {f.direction === null
              ? 'About the same'
              : `${f.direction === 'HIGHER' ? 'Higher' : 'Lower'} by ${f.percent}%`}
          </strong>
        </li>
      ) : null}
    </ul>
  )
}

/** A city's rates by experience beside the national ones, as a table. */
function ExperienceTable({
  place,
  experience,
  rate,
}: {
  place: string
  experience: readonly ExperienceRow[]
  rate: (v: number) => string
}) {
  return (
    <table className="rates-table">
      <caption>{`Rates by experience: ${place} and the national average`}</caption>
      <thead>
        <tr>
          <th scope="col">Experience</th>
          <th scope="col">{place}</th>
          <th scope="col">National</th>
        </tr>
      </thead>
      <tbody>
        {experience.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>{row.local === null ? '–' : rate(row.local)}</td>
            <td>{row.national === null ? '–' : rate(row.national)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The guide's opening: the heading, the average against the national one, the range. */
function Opening({ service, place, figures: f, thin }: CostGuidePageProps) {
  const where = place ?? 'the US'
  const rate = (v: number) => rateAverage(v, f.payUnit)
  const versus =
    f.national === null
      ? null
      : f.direction === null
        ? `about the same as the national average of ${rate(f.national)}`
        : `${f.percent}% ${f.direction === 'HIGHER' ? 'higher' : 'lower'} than the national average of ${rate(f.national)}`
  return (
    <>
      <h1>{`How much do ${service.nouns} cost${place ? ` in ${place}` : ''}?`}</h1>
      <p className="lede">
        {`The average ${service.noun} in ${where} charges ${rate(f.average)}${versus ? `, ${versus}` : ''}. ` +
          `Rates run from ${rateRange(f.min, f.max, f.payUnit)}.`}
      </p>
      {thin ? (
        <p className="notice">
          {`Only ${count(f.sample, `${service.noun} lists`, `${service.nouns} list`)} a rate in ${where} so far, so these figures are a rough guide and will change as more join.`}
        </p>
      ) : null}
      <FigureList figures={f} rate={rate} />
      <p>
        {`Based on the rates of ${count(f.sample, `${service.noun}`, `${service.nouns}`)} with profiles in ${where}, ${monthYear(f.updatedAt)}.`}
      </p>
    </>
  )
}

/** The guide's two charts: the place against others, and its rates by years of experience. */
function Charts(props: CostGuidePageProps) {
  const { service, place, figures: f } = props
  const where = place ?? 'the US'
  const rate = (v: number) => rateAverage(v, f.payUnit)
  const trend = experienceTrend(
    props.experience.map((row) => ({ label: row.label, value: row.local })),
    service.nouns,
    where,
    rate,
  )
  return (
    <>
      <h2>{place ? `${place} against other cities` : 'Rates across the country'}</h2>
      <BarChart
        id="rates"
        title={`Average ${service.title.toLowerCase()} rate: ${place ? `${place}, the national average, ${props.comparedWith}` : `the national average and ${props.comparedWith}`}`}
        description={`Average rate per ${f.payUnit === 'hr' ? 'hour' : 'week'} from caregivers' profiles. ${where === 'the US' ? 'The US' : where} averages ${rate(f.average)}.`}
        bars={props.comparison}
        format={rate}
        columns={['Place', 'Average rate']}
      />
      <h2>Rates by experience</h2>
      <p>{trend}</p>
      <BarChart
        id="experience"
        title={`Average ${service.title.toLowerCase()} rate by years of experience in ${where}`}
        description={trend}
        bars={props.experience.flatMap((row) =>
          row.local === null ? [] : [{ label: row.label, value: row.local, highlight: true }],
        )}
        format={rate}
        columns={['Experience', 'Average rate']}
      />
      {place ? <ExperienceTable place={place} experience={props.experience} rate={rate} /> : null}
    </>
  )
}

/**
 * A cost guide (costGuide): what a service costs in a city, or across the country. The inside of
 * the document's <main>, rendered apart (src/views/main-markup.ts).
 */
export function CostGuidePage(props: CostGuidePageProps) {
  const { service, place } = props
  const where = place ?? 'the US'
  return (
    <>
      <Breadcrumbs crumbs={props.crumbs} />
      <Opening {...props} />
      <CallToAction
        segment={service.slug}
        text={`Compare ${service.nouns}${place ? ` in ${place}` : ' near you'} and find one in your budget.`}
        label={`Find ${service.title.toLowerCase()}`}
      />
      <Charts {...props} />
      <Answers title={`${service.title} in ${where}: questions`} answers={props.answers} />
      {props.directory ? (
        <p>
          <a href={props.directory.href}>{props.directory.text}</a>
        </p>
      ) : null}
      <LinkList
        title={place ? `${service.title} costs in nearby cities` : `${service.title} costs by city`}
        items={props.cities}
      />
      <LinkList
        title={place ? `Other care costs in ${place}` : 'Other cost guides'}
        items={props.others}
      />
    </>
  )
}
