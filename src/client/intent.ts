import { DATA_PREFIX } from '../urls/data-prefix'
import { crumb } from './report'
import { setLive } from './store'

/** The intent island's form, if `target` is in it. */
export function intentForm(target: EventTarget | null): HTMLFormElement | null {
  const form = target instanceof Element ? target.closest('form') : null
  return form?.closest('[data-island="intent"]') ? form : null
}

/**
 * Saves the buying intent chosen in a listing's intent island: the flow's own step answers
 * at `/_data{path}` (it sets the `csc` cookie and names the next step), and the visitor stays
 * on the listing with a link onwards.
 */
export async function chooseIntent(form: HTMLFormElement): Promise<void> {
  const chosen = form.querySelector<HTMLInputElement>('input[name="intent"]:checked')
  if (!chosen) return
  const label = chosen.parentElement?.textContent?.trim() ?? chosen.value
  setLive({ intent: { kind: 'saving' } })
  crumb(`intent ${chosen.value}`)
  try {
    const path = new URL(form.action).pathname
    // The same fields the form would send: the intent, and the page to return to.
    const query = new URLSearchParams({ intent: chosen.value })
    const from = form.querySelector<HTMLInputElement>('input[name="from"]')?.value
    if (from) query.set('from', from)
    const res = await fetch(`${DATA_PREFIX}${path}?${query.toString()}`, {
      headers: { 'x-data-request': '1' },
      credentials: 'same-origin',
    })
    if (!res.ok) throw new Error(`intent not saved: ${res.status}`)
    const { next } = (await res.json()) as { next: string }
    setLive({ intent: { kind: 'saved', label, next } })
  } catch {
    setLive({ intent: { kind: 'failed' } })
  }
}
