// The ops console's islands (docs/operations.md, "The ops console"), the build's `ops.js`: the
// purge form's preview as its value is typed, and the health page's counts kept current. The
// console works without them (forms that post and redirect); each island only shows sooner what
// the next page would.
import { useEffect, useState } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { OPS_LIVE_HEALTH, OPS_LIVE_PREVIEW } from '../urls/paths'
import type { LiveCounts } from '../views/ops/health-views'
import { AppliedChanges, LIVE_COUNTS_ID, LIVE_COUNTS_STATE_ID } from '../views/ops/health-views'
import type { PreviewTag } from '../views/ops/ops-types'
import { LIVE_PREVIEW_ID, PreviewTable } from '../views/ops/purge-views'

/** How long typing pauses before the preview is asked for. */
const TYPING_PAUSE_MS = 250
/** How often the health page's counts are fetched again while the page is in view. */
const COUNTS_EVERY_MS = 5000

/** What the preview endpoint answers: the tags, or why the value is refused. */
type Preview = { tags: PreviewTag[] } | { error: string } | null

/** The form's purge as the preview endpoint's query, or null while its value is empty. */
function queryOf(form: HTMLFormElement): string | null {
  const by = form.elements.namedItem('by')
  const value = form.elements.namedItem('value')
  if (!(by instanceof HTMLSelectElement) || !(value instanceof HTMLInputElement)) return null
  return value.value.trim()
    ? new URLSearchParams({ by: by.value, value: value.value }).toString()
    : null
}

async function fetchPreview(query: string, signal: AbortSignal): Promise<Preview> {
  const res = await fetch(`${OPS_LIVE_PREVIEW}?${query}`, { signal })
  if (res.ok || res.status === 400) return (await res.json()) as Preview
  return { error: `no preview (${res.status}): open the console again` }
}

/** The preview of what `form` names, asked again each time typing pauses. */
function LivePreview({ form }: { form: HTMLFormElement }) {
  const [preview, setPreview] = useState<Preview>(null)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let asked: AbortController | undefined
    const ask = () => {
      asked?.abort()
      const query = queryOf(form)
      if (!query) return setPreview(null)
      asked = new AbortController()
      fetchPreview(query, asked.signal).then(setPreview, (e: unknown) => {
        if (!(e instanceof DOMException && e.name === 'AbortError'))
          setPreview({ error: 'no preview: the console did not answer' })
      })
    }
    const typed = () => {
      clearTimeout(timer)
      timer = setTimeout(ask, TYPING_PAUSE_MS)
    }
    form.addEventListener('input', typed)
    form.addEventListener('change', typed)
    ask()
    return () => {
      clearTimeout(timer)
      asked?.abort()
      form.removeEventListener('input', typed)
      form.removeEventListener('change', typed)
    }
  }, [form])
  if (!preview) return null
  if ('error' in preview) return <p className="error">{`No preview: ${preview.error}`}</p>
  return <PreviewTable tags={preview.tags} />
}

/** The health page's counts, fetched again every few seconds while the page is in view. */
function Counts({ first }: { first: LiveCounts }) {
  const [counts, setCounts] = useState(first)
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState !== 'visible') return
      fetch(OPS_LIVE_HEALTH)
        .then((res) => (res.ok ? (res.json() as Promise<LiveCounts>) : null))
        .then((next) => next && setCounts(next))
        // A failed fetch keeps the counts there were; the next one tries again.
        .catch(() => undefined)
    }
    const every = setInterval(refresh, COUNTS_EVERY_MS)
    document.addEventListener('visibilitychange', refresh)
    return () => {
      clearInterval(every)
      document.removeEventListener('visibilitychange', refresh)
    }
  }, [])
  return <AppliedChanges counts={counts} />
}

const previewRoot = document.getElementById(LIVE_PREVIEW_ID)
const form = previewRoot?.previousElementSibling
if (previewRoot && form instanceof HTMLFormElement)
  createRoot(previewRoot).render(<LivePreview form={form} />)

const countsRoot = document.getElementById(LIVE_COUNTS_ID)
const counts = document.getElementById(LIVE_COUNTS_STATE_ID)?.textContent
if (countsRoot && counts)
  hydrateRoot(countsRoot, <Counts first={JSON.parse(counts) as LiveCounts} />)
