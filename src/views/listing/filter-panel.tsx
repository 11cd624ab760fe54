import type { FilterField } from '../../queries/filter-fields'
import { searchOf } from '../../queries/query-params'
import type { IslandProps } from './island-props'

/**
 * A listing's filters as a plain GET form: it works without JavaScript, and what it submits is
 * what the route's query parser reads. Submitting starts again at page 1. In the browser, a
 * change applies at once (src/client/router.ts).
 */
export function FilterPanel({ state, live }: IslandProps) {
  return <FilterForm path={state.path} filters={state.filters} formKey={live.formKey} />
}

/** A filter in force: what it says, and the link to the same listing without it. */
export interface ActiveFilter {
  label: string
  href: string
}

/** One value the form holds: a select's, a date's, or one ticked box. */
interface Choice {
  name: string
  value: string
  /** What a chip says; null for the sort, which orders the results but filters nothing. */
  label: string | null
}

function choicesOf(fields: readonly FilterField[]): Choice[] {
  return fields.flatMap((f): Choice[] => {
    if (f.kind === 'checks')
      return f.items.flatMap((item, i) =>
        (f.mask & (2 ** i)) !== 0 ? [{ name: f.name, value: item.slug, label: item.label }] : [],
      )
    if (f.kind === 'date')
      return f.value ? [{ name: f.name, value: f.value, label: `${f.label}: ${f.value}` }] : []
    // The sort's first option is the default order: not worth a parameter.
    if (f.name === 'sort')
      return f.value === f.options[0]?.value ? [] : [{ name: f.name, value: f.value, label: null }]
    const option = f.options.find((o) => o.value === f.value)
    return f.value && option ? [{ name: f.name, value: f.value, label: option.label }] : []
  })
}

/**
 * The filters in force, each with the link that removes it: the listing's first page with the
 * other choices (and the sort) kept, in the canonical query's form (src/queries/query-params.ts).
 */
export function activeFilters(path: string, fields: readonly FilterField[]): ActiveFilter[] {
  const choices = choicesOf(fields)
  const without = (removed: Choice) => {
    const pairs: Record<string, string> = {}
    for (const c of choices) {
      if (c === removed) continue
      pairs[c.name] = pairs[c.name] ? `${pairs[c.name]},${c.value}` : c.value
    }
    return path + searchOf(pairs)
  }
  return choices.flatMap((c) => (c.label === null ? [] : [{ label: c.label, href: without(c) }]))
}

/** The filters in force as chips, each a link that removes it, and one that clears them all. */
function Chips({ active, path }: { active: readonly ActiveFilter[]; path: string }) {
  return (
    <div className="chips">
      <ul aria-label="Filters in use">
        {active.map((filter) => (
          <li key={filter.href}>
            <a className="chip" href={filter.href} aria-label={`Remove filter: ${filter.label}`}>
              {filter.label}
              <span aria-hidden="true">×</span>
            </a>
          </li>
        ))}
      </ul>
      <a className="chips-clear" href={path}>
        Clear all
      </a>
    </div>
  )
}

/** One field of the form: a date, a choice of one, or a set of boxes to tick. */
function Field({ field: f }: { field: FilterField }) {
  if (f.kind === 'date')
    return (
      <label className="field">
        {f.label}
        <input type="date" name={f.name} defaultValue={f.value} />
      </label>
    )
  if (f.kind === 'select')
    return (
      <label className="field">
        {f.label}
        <select name={f.name} defaultValue={f.value}>
          {f.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
    )
  return (
    <fieldset className="wide">
      <legend>{f.legend}</legend>
      <div className="checks">
        {f.items.map((item, i) => (
          <label key={item.slug}>
            <input
              type="checkbox"
              name={f.name}
              value={item.slug}
              defaultChecked={(f.mask & (2 ** i)) !== 0}
            />
            {` ${item.label}`}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/**
 * The panel from what shapes it: rendered once per service and query on the server. The
 * filters in force stay in view as chips, each a link that removes it; the form is a
 * disclosure on phones, and always open beside the results on wide screens (styles.css).
 */
export function FilterForm({
  path,
  filters: fields,
  formKey,
}: {
  path: string
  filters: readonly FilterField[]
  formKey: number
}) {
  const active = activeFilters(path, fields)
  return (
    <div className="filter-panel">
      {active.length ? <Chips active={active} path={path} /> : null}
      <details className="filters">
        <summary>{`Filters${active.length ? ` (${active.length})` : ''}`}</summary>
        <form key={formKey} method="get" action={path}>
          {fields.map((f) => (
            <Field key={f.name} field={f} />
          ))}
          <div className="filter-actions">
            <button type="submit">Show results</button>
            <a href={path}>Clear filters</a>
          </div>
        </form>
      </details>
    </div>
  )
}
