import type { Crumb } from '../../seo/json-ld'
import { workFlowHref } from '../parts/call-to-action'
import { useSite } from '../site-context'
import { ListingMain } from '../listing/listing-layout'
import type { ListingState } from '../listing/listing-state'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'

export interface ActivitiesPageProps {
  crumbs: readonly Crumb[]
  state: ListingState
  related: readonly LinkItem[]
  categories: readonly LinkItem[]
  /** Invites providers to list their activities (flag providerSignUpBanner). */
  signUpBanner: boolean
}

/**
 * The camps and classes of an activity category or subcategory (campsAndActivities). The inside
 * of its <main>: it streams nothing.
 */
export function ActivitiesPage(props: ActivitiesPageProps) {
  const site = useSite()
  return (
    <ListingMain
      crumbs={props.crumbs}
      state={props.state}
      aside={
        props.signUpBanner ? (
          <aside className="banner" aria-label="For providers">
            {'Run camps or classes for kids? List them free and reach families nearby. '}
            <a href={workFlowHref(null, site.path)}>List your activities</a>
          </aside>
        ) : null
      }
    >
      <LinkList title="Related activities" items={props.related} />
      <LinkList title="More activities for kids" items={props.categories} />
    </ListingMain>
  )
}
