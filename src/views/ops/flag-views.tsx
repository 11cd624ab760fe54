import { fieldError } from './field-error'
import type { DiffLine } from '../../lib/line-diff'

/** One flag or configuration key as the console lists it. */
export interface SettingRow {
  name: string
  kind: 'flag' | 'config'
  stored: string
  value: string
  source: string
}

/** Every setting: what is stored, what the worker makes of it, and a way to change it. */
export function FlagTable({
  rows,
  editPath,
}: {
  rows: readonly SettingRow[]
  editPath: ((name: string) => string) | null
}) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Stored document</th>
          <th scope="col">Effective value</th>
          {editPath ? <th scope="col">Change</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name}>
            <th scope="row">{`${r.name} (${r.kind})`}</th>
            <td>{r.stored ? <pre>{r.stored}</pre> : 'nothing stored'}</td>
            <td>
              <strong>{r.value}</strong>
              <br />
              {r.source}
            </td>
            {editPath ? (
              <td>
                <a href={editPath(r.name)}>{`Change ${r.name}`}</a>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The form that proposes a new document; a refused one comes back with the reason. */
export function FlagForm({
  action,
  name,
  text,
  error,
  csrf,
}: {
  action: string
  name: string
  text: string
  error: string | null
  csrf: string
}) {
  const refused = fieldError('flag-doc-error', error)
  return (
    <form method="post" action={action}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="name" value={name} />
      <label htmlFor="flag-doc">{`New document of ${name} (JSON; empty: the documented default)`}</label>
      <textarea
        id="flag-doc"
        name="doc"
        rows={12}
        cols={60}
        defaultValue={text}
        {...refused.attributes}
      />
      {refused.note}
      <div>
        <button type="submit">Show the change</button>
      </div>
    </form>
  )
}

/** The change as a diff, what it will mean, and its confirmation. */
export function FlagChange({
  action,
  name,
  diff,
  before,
  after,
  value,
  csrf,
}: {
  action: string
  name: string
  diff: readonly DiffLine[]
  before: string
  after: string
  value: string
  csrf: string
}) {
  const mark = { same: '  ', removed: '- ', added: '+ ' }
  return (
    <>
      <p>{`After the change, ${name} is: ${value}`}</p>
      <pre className="diff" aria-label="The change">
        {diff.map((line, i) => (
          <span key={i} className={line.kind}>
            {`${mark[line.kind]}${line.text}\n`}
          </span>
        ))}
      </pre>
      <form method="post" action={action}>
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="name" value={name} />
        <input type="hidden" name="before" value={before} />
        <input type="hidden" name="doc" value={after} />
        <button type="submit">Save the change</button>
      </form>
    </>
  )
}

/** The visitor form's fields as sent, and which one was refused and why. */
export interface VisitorFormState {
  url: string
  visitor: 'new' | 'returning'
  device: string
  bot: boolean
  error: { field: 'url' | 'device'; message: string } | null
}

/** Asks for a URL and a visitor: the flags' values that visitor gets there (a GET). */
export function VisitorForm({ action, state }: { action: string; state: VisitorFormState }) {
  const refused = (field: 'url' | 'device') =>
    fieldError(`visitor-${field}-error`, state.error?.field === field ? state.error.message : null)
  return (
    <form method="get" action={action}>
      <label htmlFor="visitor-url">Page URL (or path)</label>
      <input
        id="visitor-url"
        name="url"
        type="text"
        defaultValue={state.url}
        {...refused('url').attributes}
      />
      {refused('url').note}
      <fieldset>
        <legend>Visitor</legend>
        <label>
          <input type="radio" name="visitor" value="new" defaultChecked={state.visitor === 'new'} />{' '}
          New (no device id yet)
        </label>
        <label>
          <input
            type="radio"
            name="visitor"
            value="returning"
            defaultChecked={state.visitor === 'returning'}
          />{' '}
          Returning, with this device id (their care_did cookie):
        </label>
        <input
          id="visitor-device"
          name="device"
          type="text"
          aria-label="Device id"
          defaultValue={state.device}
          {...refused('device').attributes}
        />
        {refused('device').note}
        <label>
          <input type="checkbox" name="bot" value="1" defaultChecked={state.bot} /> A crawler
        </label>
      </fieldset>
      <div>
        <button type="submit">Show the values</button>
      </div>
    </form>
  )
}

/** Each flag's value for the chosen visitor on the page, and why. */
export function VisitorValues({
  page,
  rows,
}: {
  page: string
  rows: readonly { name: string; value: string; why: string }[]
}) {
  return (
    <table>
      <caption>{page}</caption>
      <thead>
        <tr>
          <th scope="col">Flag</th>
          <th scope="col">Value</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name}>
            <th scope="row">{r.name}</th>
            <td>
              <strong>{r.value}</strong>
            </td>
            <td>{r.why}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
