import type { FilterField } from '../../queries/filter-fields'
import type { IslandProps } from './island-props'

/**
 * A listing's filters as a plain GET form: it works without JavaScript, and what it submits is
 * what the route's query parser reads. Submitting starts again at page 1. In the browser, a
 * change applies at once (src/client/router.ts).
 */
export function FilterPanel({ state, live }: IslandProps) {
  return <FilterForm path={state.path} filters={state.filters} formKey={live.formKey} />
}

/** The panel from what shapes it: rendered once per service and query on the server. */
export function FilterForm({
  path,
  filters: fields,
  formKey,
}: {
  path: string
  filters: readonly FilterField[]
  formKey: number
}) {
  const active = fields.filter((f) =>
    f.kind === 'checks' ? f.mask !== 0 : f.value !== '' && f.name !== 'sort',
  ).length
  return (
    <details className="filters">
      <summary>{`Filters${active ? ` (${active})` : ''}`}</summary>
      <form key={formKey} method="get" action={path}>
        {fields.map((f) =>
          f.kind === 'date' ? (
            <label key={f.name} className="field">
              {f.label}
              <input type="date" name={f.name} defaultValue={f.value} />
            </label>
          ) : f.kind === 'select' ? (
            <label key={f.name} className="field">
              {f.label}
              <select name={f.name} defaultValue={f.value}>
                {f.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <fieldset key={f.name} className="wide">
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
          ),
        )}
        <div className="filter-actions">
          <button type="submit">Show results</button>
          <a href={path}>Clear filters</a>
        </div>
      </form>
    </details>
  )
}
