/** The entities catalog sync keeps a version of (the table sync_versions), by their keys' names. */
export type VersionedEntity = 'city' | 'provider' | 'listing' | 'review' | 'job' | 'activity'

/**
 * An entity's key in sync_versions, the same for every version of it: `provider:12`, or a
 * provider's listing of a service, `listing:12:babysitters`.
 */
export function versionKey(entity: VersionedEntity, id: number, service?: string): string {
  return service === undefined ? `${entity}:${id}` : `${entity}:${id}:${service}`
}
