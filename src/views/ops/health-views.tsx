import { fieldError } from './field-error'
import type { CatalogHealth, DeadLine, ReplayFormState } from './ops-types'

/** `at` (ISO or milliseconds) as an age from `now`: "12 s ago", "4 min ago", "3 h ago". */
export function ageOf(at: string | number, now: number): string {
  const s = Math.max(0, Math.round((now - new Date(at).getTime()) / 1000))
  if (s < 120) return `${s} s ago`
  if (s < 7200) return `${Math.round(s / 60)} min ago`
  if (s < 172_800) return `${Math.round(s / 3600)} h ago`
  return `${Math.round(s / 86_400)} days ago`
}

/** What the health page's island keeps current (src/client/ops.tsx), fetched every few seconds. */
export interface LiveCounts {
  now: number
  applied: CatalogHealth['applied']
  deadOpen: number
}

/** The island's root, and the element carrying the counts it was rendered from. */
export const LIVE_COUNTS_ID = 'live-counts'
export const LIVE_COUNTS_STATE_ID = 'live-counts-state'

/**
 * The changes the queue consumer applied in the last hour, by kind, the newest's age and the
 * open dead letters: rendered here, then kept current in the browser by the island.
 */
export function AppliedChanges({ counts }: { counts: LiveCounts }) {
  const { byKind, newestAt } = counts.applied
  const total = byKind.reduce((sum, k) => sum + k.changes, 0)
  return (
    <section aria-labelledby="changes-heading">
      <h2 id="changes-heading">Catalog changes</h2>
      <p>
        {newestAt === null
          ? 'No change applied in the last day.'
          : `Newest change applied ${ageOf(newestAt, counts.now)} (${new Date(newestAt).toISOString()}).`}
      </p>
      {total ? (
        <table>
          <caption>{`Applied in the last hour: ${total}`}</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {byKind.map((k) => (
              <tr key={k.kind}>
                <th scope="row">{k.kind}</th>
                <td>{k.changes}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No change applied in the last hour.</p>
      )}
      <p>{`Open dead letters: ${counts.deadOpen}.`}</p>
    </section>
  )
}

/** The form replaying one dead letter by its number; a refused one comes back with the reason. */
function ReplayOne({
  action,
  csrf,
  state,
}: {
  action: string
  csrf: string
  state: ReplayFormState
}) {
  const refused = fieldError('replay-id-error', state.error)
  return (
    <form method="post" action={action}>
      <input type="hidden" name="csrf" value={csrf} />
      <label htmlFor="replay-id">Replay a dead letter by its number</label>
      <input
        id="replay-id"
        name="id"
        type="text"
        inputMode="numeric"
        defaultValue={state.id}
        {...refused.attributes}
      />
      {refused.note}
      <div>
        <button type="submit">Replay it</button>
      </div>
    </form>
  )
}

/** A row's own replay button: a form posting its number. */
function ReplayButton({ action, csrf, id }: { action: string; csrf: string; id: number }) {
  return (
    <form method="post" action={action} className="inline">
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" aria-label={`Replay dead letter ${id}`}>
        Replay
      </button>
    </form>
  )
}

/** The dead letters shown, one a row, each with its replay button for an editor. */
function DeadLetterTable({
  letters,
  replay,
}: {
  letters: readonly DeadLine[]
  replay: { action: string; csrf: string } | null
}) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">When</th>
          <th scope="col">Message</th>
          <th scope="col">Reason</th>
          {replay ? <th scope="col">Replay</th> : null}
        </tr>
      </thead>
      <tbody>
        {letters.map((d) => (
          <tr key={d.id}>
            <th scope="row">{d.id}</th>
            <td>{d.at}</td>
            <td>{`${d.kind} ${d.entity} v${d.version}`}</td>
            <td>
              <code>{d.reason}</code>
            </td>
            {replay ? (
              <td>
                <ReplayButton action={replay.action} csrf={replay.csrf} id={d.id} />
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The open dead letters with their reasons; an editor replays one or all. */
export function DeadLetters({
  dead,
  replay,
}: {
  dead: { letters: readonly DeadLine[]; open: number }
  replay: { action: string; csrf: string; state: ReplayFormState } | null
}) {
  return (
    <section aria-labelledby="dead-heading">
      <h2 id="dead-heading">{`Dead letters: ${dead.open} open`}</h2>
      {dead.letters.length ? (
        <DeadLetterTable letters={dead.letters} replay={replay} />
      ) : (
        <p>No dead letter is open.</p>
      )}
      {dead.open > dead.letters.length ? (
        <p>{`The oldest ${dead.letters.length} are shown.`}</p>
      ) : null}
      {replay ? (
        <>
          <ReplayOne {...replay} />
          {dead.open ? (
            <form method="post" action={replay.action}>
              <input type="hidden" name="csrf" value={replay.csrf} />
              <input type="hidden" name="all" value="1" />
              <button type="submit">{`Replay all ${dead.open}`}</button>
            </form>
          ) : null}
        </>
      ) : (
        <p className="warning">You may look; replaying needs the editor role.</p>
      )}
    </section>
  )
}

/** The cron's steps: when each last succeeded and last failed, with the error. */
export function CronSteps({ health }: { health: CatalogHealth }) {
  const when = (at: string | null) => (at ? `${ageOf(at, health.now)} (${at})` : 'never')
  return (
    <section aria-labelledby="cron-heading">
      <h2 id="cron-heading">Cron steps</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Last success</th>
            <th scope="col">Last failure</th>
            <th scope="col">Its error</th>
          </tr>
        </thead>
        <tbody>
          {health.cron.map((s) => (
            <tr key={s.step}>
              <th scope="row">{s.step}</th>
              <td>{when(s.lastSuccess)}</td>
              <td>{when(s.lastFailure)}</td>
              <td>{s.lastError ? <code>{s.lastError}</code> : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** The gate's build: when, how many slugs for how many, how large. */
export function GateBuild({ health }: { health: CatalogHealth }) {
  const { gate } = health
  return (
    <section aria-labelledby="gate-heading">
      <h2 id="gate-heading">Gate</h2>
      {gate ? (
        <p>
          {`Built ${ageOf(gate.builtAt, health.now)} (${gate.builtAt}): ` +
            `${gate.items.toLocaleString('en-US')} slugs and ids, room for ` +
            `${gate.capacity.toLocaleString('en-US')}; ${(gate.bytes / 1024).toFixed(0)} KiB, ` +
            `${gate.hashes} hashes.`}
        </p>
      ) : (
        <p className="warning">No gate is stored: the gate is open until the cron builds it.</p>
      )}
    </section>
  )
}
