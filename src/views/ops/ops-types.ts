/** What every console page's header shows: its links and who is signed in. */
export interface OpsNav {
  home: string
  purges: string
  flags: string
  health: string
  email: string
  role: string
}

/** One tag of a purge preview (src/cache/purge-preview.ts). */
export interface PreviewTag {
  tag: string
  pages: string
  estimate: number | null
}

/** One row of the purge and flag audit log (read by src/cache/purge-audit.ts). */
export interface AuditLine {
  id: number
  at: string
  who: string
  urls: string[]
  tags: string[]
  purged: number
  outcome: string
  refusals: number
}

/** The purge form's fields as sent, and why they were refused, if they were. */
export interface PurgeFormState {
  by: string
  value: string
  error: string | null
}

/** The ways to name a purge, as the form offers them, with what to type. */
export const PURGE_CHOICES: readonly { by: string; label: string; hint: string }[] = [
  {
    by: 'url',
    label: 'Page URL',
    hint: 'https://www.care.example/babysitters/atlanta-ga or a path',
  },
  { by: 'provider', label: 'Provider', hint: 'its id, or its profile URL pasted whole' },
  { by: 'job', label: 'Job', hint: 'its id, or its job page URL pasted whole' },
  { by: 'city', label: 'City', hint: 'its slug, such as atlanta-ga: every page of the city' },
  { by: 'page', label: 'Page type', hint: 'seoSearchListing, seoProviderProfile, home, …' },
  { by: 'tag', label: 'Raw tag', hint: 'kind:value, such as service:babysitters' },
]

/** What the catalog health page shows (src/routes/ops-health.tsx). */
export interface CatalogHealth {
  now: number
  applied: { byKind: { kind: string; changes: number }[]; newestAt: number | null }
  dead: { letters: DeadLine[]; open: number }
  cron: {
    step: string
    lastSuccess: string | null
    lastFailure: string | null
    lastError: string | null
  }[]
  gate: { builtAt: string; items: number; capacity: number; bytes: number; hashes: number } | null
}

/** A dead letter as the health page lists it (src/sync/dead-letters.ts). */
export interface DeadLine {
  id: number
  at: string
  kind: string
  entity: string
  version: string
  reason: string
}

/** The replay form's field as sent, and why it was refused, if it was. */
export interface ReplayFormState {
  id: string
  error: string | null
}
