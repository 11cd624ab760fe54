import type { Crumb } from '../../seo/json-ld'
import { Breadcrumbs } from '../parts/breadcrumbs'
import { CallToAction } from '../parts/call-to-action'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'

export interface SegmentPageProps {
  crumbs: readonly Crumb[]
  slug: string
  title: string
  intro: string
  services: readonly LinkItem[]
  cities: readonly LinkItem[]
}

/**
 * A segment landing page: what the care is, who offers it, and the way into the visitor flow.
 * The inside of the document's <main>, rendered apart (src/views/main-markup.ts).
 */
export function SegmentPage(props: SegmentPageProps) {
  return (
    <>
      <Breadcrumbs crumbs={props.crumbs} />
      <h1>{props.title}</h1>
      <p className="lede">{props.intro}</p>
      <CallToAction
        segment={props.slug}
        text={`Tell us what you need and we'll match you with ${props.title.toLowerCase()} near you.`}
        label="Get started"
      />
      <LinkList title="Caregivers who can help" items={props.services} />
      <LinkList title="Top cities" items={props.cities} />
    </>
  )
}
