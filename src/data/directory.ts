// Control's entity directory (docs/scale.md): which shard holds a provider's or a job's rows.
// A profile or a job reads it first, then the shard it names: two round trips, the second sent
// to one database.
import { versionKey } from '../catalog/version-key'
import type { Db } from './db'

/** Where an entity's rows are: its shard, and the state of its city (a profile's rollups). */
export interface Placed {
  shard: number
  stateCode: string
}

/**
 * The directory row of provider `id`: its shard and state; 'removed' for one the sync removed
 * (a tombstone: the profile answers 410); null for an id no provider ever had. Both reads in one
 * round trip.
 */
export async function findProviderPlace(
  control: Db,
  id: number,
): Promise<Placed | 'removed' | null> {
  const [row, tombstone] = await Promise.all([
    control.first<Placed>(
      `SELECT d.shard, c.state_code AS stateCode
         FROM provider_directory d JOIN cities c ON c.id = d.city_id WHERE d.id = ?`,
      id,
    ),
    control.first<{ version: number }>(
      'SELECT version FROM directory_tombstones WHERE key = ?',
      versionKey('provider', id),
    ),
  ])
  return row ?? (tombstone ? 'removed' : null)
}

/** The directory row of job `id`: its shard and state; null for none (a removed job is a 404). */
export function findJobPlace(control: Db, id: number): Promise<Placed | null> {
  return control.first<Placed>(
    `SELECT d.shard, c.state_code AS stateCode
       FROM job_directory d JOIN cities c ON c.id = d.city_id WHERE d.id = ?`,
    id,
  )
}
