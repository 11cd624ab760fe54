import { expect, it } from 'vitest'
import { purge, shardOf } from '../support/builders'
import { everyBinding } from '../support/databases'
import { anIsolate } from '../support/fetch-page'
import { withFaults } from '../support/with-faults'

// Read replication against purges: a replica that has not yet seen a data change (simulated:
// a session opened `first-unconstrained` answers with the value from before the change) must
// never end up stored after the change's purge.

const PATH = '/tutors/austin-tx'
const OLD = 'A headline from before the change'
const NEW = 'A headline only the primary has'
const OLDEST_BOOKMARK = '00000000-00000000-00000000-00000000000000000000000000000000'

/** Sets the headline of every tutor in Austin, as a data change does. */
async function headlines(headline: string) {
  await shardOf('austin-tx')
    .prepare(
      `UPDATE providers SET headline = ? WHERE id IN (
       SELECT ps.provider_id FROM provider_services ps JOIN cities c ON c.id = ps.city_id
       WHERE ps.service = 'tutors' AND c.slug = 'austin-tx')`,
    )
    .bind(headline)
    .run()
}

/**
 * Control and the shards behind lagging replicas: reads through a session any replica may answer
 * give `old` where the primary has `NEW`; the primary's sessions answer as they are. `sessions`:
 * every session opened, on whichever database.
 */
function laggingReplica(old: string): { bindings: Partial<Env>; sessions: string[] } {
  const sessions: string[] = []
  const lag = (row: unknown) =>
    Object.fromEntries(
      Object.entries(row as Record<string, unknown>).map(([k, v]) => [k, v === NEW ? old : v]),
    )
  const lagging = (db: D1Database) =>
    withFaults(db, {
      withSession: (withSession, constraint) => {
        const unconstrained = constraint === 'first-unconstrained'
        sessions.push(unconstrained ? 'replica' : 'primary')
        const session = withSession(constraint)
        if (!unconstrained) return session
        const lagged = (result: D1Result) => ({ ...result, results: result.results.map(lag) })
        return withFaults(session, {
          // A lagging replica stands at an older bookmark: here, the oldest there is.
          getBookmark: () => OLDEST_BOOKMARK,
          prepare: (prepare, sql) =>
            withFaults(prepare(sql), {
              bind: (bind, ...params) =>
                withFaults(bind(...params), { all: async (all) => lagged(await all()) }),
            }),
          // Reads sent together (src/data/db.ts) lag alike.
          batch: async (batch, statements) => (await batch(statements)).map(lagged),
        })
      },
    })
  return { bindings: everyBinding(lagging), sessions }
}

it('renders from the primary in an isolate that knows nothing of purges yet', async () => {
  const { bindings, sessions } = laggingReplica('')
  await anIsolate().settled('/nannies/austin-tx', {}, bindings)
  expect(sessions[0]).toBe('primary')
})

it('never stores a page rendered from a replica older than a purge recorded before it', async () => {
  // Before the change: every tutor in Austin has the headline OLD.
  await headlines(OLD)
  // An isolate that knows the purges so far (read after its first render); then the data
  // changes and its purge is recorded elsewhere, and this isolate renders the page before its
  // next read of the purges, through a session the lagging replica answers.
  const { bindings, sessions } = laggingReplica(OLD)
  const isolate = anIsolate()
  await isolate.settled('/nannies/austin-tx', {}, bindings)
  await headlines(NEW)
  await purge({ urls: [PATH] })
  const opened = sessions.length
  const rendered = await isolate.settled(PATH, {}, bindings)
  expect(sessions[opened]).toBe('replica')
  expect(rendered.body).toContain(OLD)

  // Its render was not stored: the next request renders again, and never serves the old copy.
  for (let i = 0; i < 3; i++) {
    const next = await isolate.settled(PATH, {}, bindings)
    expect(next.body).not.toContain(OLD)
    expect(next.body).toContain(NEW)
  }
})
