/** What every console page's header shows: its links and who is signed in. */
export interface OpsNav {
  home: string
  purges: string
  flags: string
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
