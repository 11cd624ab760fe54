import type { On } from '../../flags/visibility'
import { startsAtEnrollment } from '../../flags/visibility'
import { flowPath, providerEntryPath, whoNeedsCarePath, withQuery } from '../../urls/paths'
import { FROM } from '../../urls/return-path'
import { useSite } from '../site-context'

/**
 * Where a visitor looking for care goes next: the visitor flow's entry for a segment, carrying
 * the page it came from (docs/pages.md, "Visitor flow"). With the adult care enrollment rollout,
 * adult care goes straight to the enrollment step, which then asks what step 1 would have.
 */
export function careFlowHref(segment: string, on: On, from: string): string {
  return startsAtEnrollment(segment, on)
    ? withQuery(whoNeedsCarePath, { segment, [FROM]: from })
    : withQuery(flowPath(segment), { [FROM]: from })
}

/** Where someone who wants work goes next: the provider entry, a kind of work chosen or not. */
export function workFlowHref(work: string | null, from: string): string {
  return withQuery(providerEntryPath, { work, [FROM]: from })
}

/** The next step for a visitor looking for care. */
export function CallToAction({
  segment,
  text,
  label,
}: {
  segment: string
  text: string
  label: string
}) {
  const site = useSite()
  return <Band text={text} label={label} href={careFlowHref(segment, site.on, site.path)} />
}

/** The next step for someone who wants care work (a job's "Apply now"). */
export function WorkCallToAction({
  work,
  text,
  label,
}: {
  /** The job family the page is about, chosen for them in the entry. */
  work: string | null
  text: string
  label: string
}) {
  const site = useSite()
  return <Band text={text} label={label} href={workFlowHref(work, site.path)} />
}

function Band({ text, label, href }: { text: string; label: string; href: string }) {
  return (
    <div className="cta-band">
      <p>{text}</p>
      <a className="cta" href={href}>
        {label}
      </a>
    </div>
  )
}
