/**
 * The kinds of cache tag pages carry (docs/caching.md, "Tags"): a purge names tags of these kinds,
 * `kind:value`, such as `provider:8` or `city:atlanta-ga`. Pages build their tags with `TAG`, so a
 * page can only carry a tag the purge endpoint accepts.
 */
export const TAG_KINDS = [
  'url',
  'service',
  'city',
  'state',
  'provider',
  'job',
  'keyword',
  'category',
  'segment',
  'page',
] as const

export type TagKind = (typeof TAG_KINDS)[number]
export type CacheTag = `${TagKind}:${string}`

/** One builder per kind: `TAG.city('atlanta-ga')` is `city:atlanta-ga`. */
export const TAG = Object.fromEntries(
  TAG_KINDS.map((kind) => [kind, (value: string | number) => `${kind}:${value}`]),
) as { readonly [K in TagKind]: (value: string | number) => `${K}:${string}` }

const VALUE = /^[A-Za-z0-9._/-]{1,200}$/

/** Why `tag` is not a tag a page can carry, in words for a person; null when it is one. */
export function tagProblem(tag: string): string | null {
  const colon = tag.indexOf(':')
  const kind = tag.slice(0, Math.max(colon, 0))
  if (colon < 0 || !(TAG_KINDS as readonly string[]).includes(kind))
    return `"${tag}" is not a tag: a tag is kind:value, the kind one of ${TAG_KINDS.join(', ')} (such as provider:8 or city:atlanta-ga)`
  if (!VALUE.test(tag.slice(colon + 1)))
    return `"${tag}" is not a tag: after "${kind}:" come 1 to 200 letters, digits, dots, dashes, underscores or slashes`
  return null
}
