import { fieldError } from './field-error'
import type { AuditLine, PreviewTag, PurgeFormState } from './ops-types'
import { PURGE_CHOICES } from './ops-types'

/** The root of the purge form's island, which previews the purge as its value is typed. */
export const LIVE_PREVIEW_ID = 'purge-live'

/**
 * The purge form: what to purge; a refused value comes back with its reason next to it. Under
 * it, the island's root (empty until the console's script fills it; read out when it changes).
 */
export function PurgeForm({ action, state }: { action: string; state: PurgeFormState }) {
  const refused = fieldError('purge-value-error', state.error)
  return (
    <>
      <form method="get" action={action}>
        <label htmlFor="purge-by">Purge by</label>
        <select id="purge-by" name="by" defaultValue={state.by}>
          {PURGE_CHOICES.map((c) => (
            <option key={c.by} value={c.by}>
              {`${c.label}: ${c.hint}`}
            </option>
          ))}
        </select>
        <label htmlFor="purge-value">What to purge</label>
        <input
          type="text"
          id="purge-value"
          name="value"
          defaultValue={state.value}
          {...refused.attributes}
        />
        {refused.note}
        <div>
          <button type="submit">Preview</button>
        </div>
      </form>
      <div id={LIVE_PREVIEW_ID} className="live" aria-live="polite" />
    </>
  )
}

/** What a purge would reach, and the form that makes it. */
export function PurgePreview({
  tags,
  state,
  action,
  csrf,
}: {
  tags: readonly PreviewTag[]
  state: PurgeFormState
  action: string
  csrf: string
}) {
  return (
    <>
      <PreviewTable tags={tags} />
      <form method="post" action={action}>
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="by" value={state.by} />
        <input type="hidden" name="value" value={state.value} />
        <button type="submit">Purge now</button>
      </form>
    </>
  )
}

/** The tags a purge bumps, the pages each reaches and an estimate of how many carry it. */
export function PreviewTable({ tags }: { tags: readonly PreviewTag[] }) {
  return (
    <>
      <p>Purging this marks every stored page carrying one of these tags as removed:</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Tag</th>
            <th scope="col">Pages it reaches</th>
            <th scope="col">Pages carrying it (catalog estimate)</th>
          </tr>
        </thead>
        <tbody>
          {tags.map((t) => (
            <tr key={t.tag}>
              <td>
                <code>{t.tag}</code>
              </td>
              <td>{t.pages}</td>
              <td>{t.estimate === null ? 'not estimated' : `up to ${t.estimate}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

/** A purge as the audit log holds it, with the check of its page when it named one. */
export function PurgeResult({ row, checkPath }: { row: AuditLine; checkPath: string | null }) {
  const purged = row.outcome === 'purged'
  return (
    <>
      <p className={purged ? 'notice' : 'warning'} role="status">
        {purged
          ? `Purged ${row.purged} tag${row.purged === 1 ? '' : 's'} at ${row.at} by ${row.who}.`
          : `${row.outcome} (at ${row.at}, by ${row.who})`}
      </p>
      <AuditTable rows={[row]} />
      {checkPath ? (
        <p>
          <a href={checkPath}>Fetch the page again</a> to see it re-rendered (its x-cache and render
          time).
        </p>
      ) : null}
    </>
  )
}

/** Rows of the audit log. */
export function AuditTable({ rows }: { rows: readonly AuditLine[] }) {
  if (!rows.length) return <p>No purges match.</p>
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">What</th>
          <th scope="col">Outcome</th>
          <th scope="col">Tags bumped</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>{r.at}</td>
            <td>{r.who}</td>
            <td>
              <code>{[...r.urls, ...r.tags].join(' ') || '—'}</code>
            </td>
            <td>{r.refusals > 1 ? `${r.outcome} ×${r.refusals}` : r.outcome}</td>
            <td>{r.purged}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The filters of the recent purges. */
export function AuditFilter({ action, who, tag }: { action: string; who: string; tag: string }) {
  return (
    <form method="get" action={action}>
      <label htmlFor="filter-who">Person or token</label>
      <input type="search" id="filter-who" name="who" defaultValue={who} />
      <label htmlFor="filter-tag">Tag or path</label>
      <input type="search" id="filter-tag" name="tag" defaultValue={tag} />
      <div>
        <button type="submit">Filter</button>
      </div>
    </form>
  )
}

/** A page fetched again: what the edge answered and how long it took. */
export function PageCheck({
  path,
  status,
  cache,
  ms,
  serverTiming,
}: {
  path: string
  status: number
  cache: string
  ms: number
  serverTiming: string
}) {
  return (
    <dl>
      <dt>Page</dt>
      <dd>
        <a href={path}>{path}</a>
      </dd>
      <dt>Status</dt>
      <dd>{status}</dd>
      <dt>x-cache</dt>
      <dd>
        <code>{cache}</code>
      </dd>
      <dt>Answered in</dt>
      <dd>{`${ms} ms`}</dd>
      <dt>Server-Timing</dt>
      <dd>
        <code>{serverTiming || 'none'}</code>
      </dd>
    </dl>
  )
}
