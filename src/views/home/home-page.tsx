import type { Head } from '../../seo/head'
import { Document } from '../document'
import { CallToAction } from '../parts/call-to-action'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'
import type { SearchFormProps } from '../search/search-form'
import { SearchIsland } from '../search/search-form'

export interface HomePageProps {
  head: Head
  services: readonly LinkItem[]
  cities: readonly LinkItem[]
  costGuides: readonly LinkItem[]
  activities: readonly LinkItem[]
  search: SearchFormProps
}

/** The home page: every service's national page, the largest cities, cost guides, camps. */
export function HomePage(props: HomePageProps) {
  return (
    <Document head={props.head} client>
      <h1>Find care near you</h1>
      <p className="lede">
        {
          'Compare the profiles, reviews and rates of caregivers in your city, for every kind of care your family needs.'
        }
      </p>
      <SearchIsland {...props.search} />
      <CallToAction
        segment="caregivers"
        text="Tell us what you need and we'll match you with caregivers near you."
        label="Find care now"
      />
      <LinkList title="Care by service" items={props.services} />
      <LinkList title="Care in the largest cities" items={props.cities} />
      <LinkList title="What care costs" items={props.costGuides} />
      <LinkList title="Camps and activities for kids" items={props.activities} />
    </Document>
  )
}
