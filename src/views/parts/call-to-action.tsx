import { startsAtEnrollment } from '../../flags/visibility'
import { flowPath, whoNeedsCarePath } from '../../urls/paths'
import { useSite } from '../site-context'

/**
 * The next step for a visitor: the visitor flow's entry for a segment (docs/pages.md, "Visitor
 * flow"). With the adult care enrollment rollout, adult care goes straight to the new
 * enrollment step.
 */
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
  const href = startsAtEnrollment(segment, site.on) ? whoNeedsCarePath : flowPath(segment)
  return (
    <div className="cta-band">
      <p>{text}</p>
      <a className="cta" href={href}>
        {label}
      </a>
    </div>
  )
}
