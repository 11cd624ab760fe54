import { ACTIVITY_AGE_GROUPS } from '../../catalog/activities'
import { WEEKDAYS } from '../../catalog/enums'
import { labelsOf } from '../../catalog/labels'
import type { Activity } from '../../data/activities'
import type { FilterField } from '../../routes/filter-fields'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { flowPath } from '../../routes/paths'
import { CallToAction } from '../shared/call-to-action'
import { count, dollars, longDate } from '../shared/format'
import type { LinkItem } from '../shared/link-list'
import { LinkList } from '../shared/link-list'
import { ListingLayout } from '../shared/listing-layout'

export interface ActivitiesPageProps {
  head: Head
  crumbs: readonly Crumb[]
  label: string
  total: number
  items: readonly Activity[]
  page: number
  filtered: boolean
  thin: boolean
  filters: readonly FilterField[]
  action: string
  pageHref: (page: number) => string
  related: readonly LinkItem[]
  categories: readonly LinkItem[]
  /** Invites providers to list their activities (flag providerSignUpBanner). */
  signUpBanner: boolean
}

const UNIT: Record<Activity['priceUnit'], string> = {
  session: 'session',
  wk: 'week',
  mo: 'month',
  flat: 'program',
}

export function activityPrice(a: Pick<Activity, 'price' | 'priceUnit'>): string {
  return `${dollars(a.price)} per ${UNIT[a.priceUnit]}`
}

export function activityWhen(a: Pick<Activity, 'startDate' | 'endDate'>): string {
  return a.startDate && a.endDate
    ? `${longDate(a.startDate)} to ${longDate(a.endDate)}`
    : 'Ongoing, join any week'
}

export function activityWhere(a: Activity): string {
  return a.participation === 'ONLINE'
    ? 'Online'
    : `${a.venue ?? ''}, ${a.address ?? ''}, ${a.cityName ?? ''}, ${a.stateCode ?? ''}`
}

/** The camps and classes of an activity category or subcategory (campsAndActivities). */
export function ActivitiesPage(props: ActivitiesPageProps) {
  const title = `${props.label} classes and camps for kids`
  return (
    <ListingLayout
      head={props.head}
      crumbs={props.crumbs}
      title={title}
      lede={
        props.total > 0
          ? `${count(props.total, 'camp or class', 'camps and classes')} ${props.filtered ? 'match your filters' : 'coming up or running now'}.`
          : null
      }
      notice={
        props.thin && !props.filtered
          ? `Only a few ${props.label.toLowerCase()} activities are listed right now.`
          : null
      }
      cta={
        <>
          {props.signUpBanner ? (
            <aside className="banner" aria-label="For providers">
              {'Run camps or classes for kids? List them free and reach families nearby. '}
              <a href={flowPath('caregivers')}>List your activities</a>
            </aside>
          ) : null}
          <CallToAction
            segment="child-care"
            text="Need care around camp hours? Tell us what you need and we'll match you with sitters."
            label="Find child care"
          />
        </>
      }
      filters={props.filters}
      action={props.action}
      filtered={props.filtered}
      total={props.total}
      page={props.page}
      sort="date"
      pageHref={props.pageHref}
      cards={props.items.map((a) => (
        <li key={a.id} className="card" id={`activity-${a.id}`}>
          <div>
            <h3>{a.name}</h3>
            <p className="meta">{`${a.organizer} · ${a.participation === 'ONLINE' ? 'Online' : 'In-person'}${a.isCamp ? ' · Camp' : ''}`}</p>
            <p className="rate">{activityPrice(a)}</p>
            <p className="meta">{`${activityWhen(a)} · ${labelsOf(a.days, WEEKDAYS).join(', ')}`}</p>
            <p className="meta">{`Ages ${labelsOf(a.ages, ACTIVITY_AGE_GROUPS).join(', ')} · ${activityWhere(a)}`}</p>
            <p className="bio">{a.description}</p>
          </div>
        </li>
      ))}
      empty={
        props.filtered
          ? `No ${props.label.toLowerCase()} activities match these filters.`
          : `No ${props.label.toLowerCase()} activities are listed right now.`
      }
    >
      <LinkList title="Related activities" items={props.related} />
      <LinkList title="More activities for kids" items={props.categories} />
    </ListingLayout>
  )
}
