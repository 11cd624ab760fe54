// The example message of every kind, as docs/sync-examples publishes them.
import activityRemoved from '../../docs/sync-examples/activity.removed.json'
import activityUpserted from '../../docs/sync-examples/activity.upserted.json'
import cityAdded from '../../docs/sync-examples/city.added.json'
import jobClosed from '../../docs/sync-examples/job.closed.json'
import jobUpserted from '../../docs/sync-examples/job.upserted.json'
import listingOffered from '../../docs/sync-examples/provider-service.offered.json'
import listingWithdrawn from '../../docs/sync-examples/provider-service.withdrawn.json'
import providerRemoved from '../../docs/sync-examples/provider.removed.json'
import providerUpserted from '../../docs/sync-examples/provider.upserted.json'
import reviewAdded from '../../docs/sync-examples/review.added.json'
import reviewRemoved from '../../docs/sync-examples/review.removed.json'
import type { CatalogMessage, MessageKind } from '../../src/sync/messages'
import { parseMessage } from '../../src/sync/messages'
import { env } from 'cloudflare:workers'
import { databasesOf } from '../../src/data/databases'
import { refreshCatalogStatsAt } from '../support/builders'
import { applyAcross } from '../support/databases'

export const EXAMPLES: Record<MessageKind, unknown> = {
  'city.added': cityAdded,
  'provider.upserted': providerUpserted,
  'provider.removed': providerRemoved,
  'provider-service.offered': listingOffered,
  'provider-service.withdrawn': listingWithdrawn,
  'review.added': reviewAdded,
  'review.removed': reviewRemoved,
  'job.upserted': jobUpserted,
  'job.closed': jobClosed,
  'activity.upserted': activityUpserted,
  'activity.removed': activityRemoved,
}

/** A copy of the example of `kind`, for a test to change. */
export function example<T = Record<string, unknown>>(kind: MessageKind): T {
  return structuredClone(EXAMPLES[kind]) as T
}

/** A message as a test changes it before it is checked. */
export interface Draft {
  id: number
  version: number
  closedAt?: string
  entity: Record<string, unknown>
}

/** The example of `kind` with `change` made to it, checked against the contract. */
export function aMessage(kind: MessageKind, change: (m: Draft) => void = () => {}): CatalogMessage {
  const m = example<Draft>(kind)
  change(m)
  const parsed = parseMessage(m)
  if (!parsed.ok) throw new Error(parsed.reasons.join('; '))
  return parsed.message
}

/**
 * What the property tests of derived data apply: every one of `providers` first (at version 1,
 * each in the next of `cities`), so each listing has someone to belong to; then `changes`, each
 * made at its version; all in batches of `size`, as the queue delivers them.
 */
export async function applyAfterProviders(run: {
  providers: readonly number[]
  cities: readonly number[]
  changes: readonly ((version: number) => CatalogMessage)[]
  size: number
  now: Date
}): Promise<void> {
  const messages: CatalogMessage[] = [
    ...run.providers.map((id, i) =>
      aMessage('provider.upserted', (m) => {
        Object.assign(m, { id, version: 1 })
        m.entity.cityId = run.cities[i % run.cities.length]
      }),
    ),
    ...run.changes.map((make, i) => make(i + 2)),
  ]
  for (let i = 0; i < messages.length; i += run.size)
    await applyAcross(messages.slice(i, i + run.size), { now: run.now })
}

/**
 * What a test added from `firstId` on, gone from control and the shards: each shard's rows and
 * their versions, control's directory rows, activities, cities and tombstones of them; then the
 * stats derived again everywhere (as the import's end does).
 */
export async function removeRowsEverywhere(firstId: number, now: Date): Promise<void> {
  const { control, shards } = databasesOf(env)
  const versions = `%:${String(firstId).slice(0, 7)}%`
  for (const db of shards)
    await db.batch([
      ...[
        'DELETE FROM reviews WHERE id >= ?1 OR provider_id >= ?1',
        'DELETE FROM provider_services WHERE provider_id >= ?1',
        'DELETE FROM providers WHERE id >= ?1',
        'DELETE FROM jobs WHERE id >= ?1',
        'DELETE FROM cities WHERE id >= ?1',
      ].map((sql) => db.prepare(sql).bind(firstId)),
      db.prepare('DELETE FROM sync_versions WHERE key LIKE ?1').bind(versions),
    ])
  await control.batch([
    ...[
      'DELETE FROM provider_directory WHERE id >= ?1',
      'DELETE FROM job_directory WHERE id >= ?1',
      'DELETE FROM activities WHERE id >= ?1',
      'DELETE FROM cities WHERE id >= ?1',
    ].map((sql) => control.prepare(sql).bind(firstId)),
    control.prepare('DELETE FROM sync_versions WHERE key LIKE ?1').bind(versions),
    control.prepare('DELETE FROM directory_tombstones WHERE key LIKE ?1').bind(versions),
  ])
  await refreshCatalogStatsAt(now)
}
