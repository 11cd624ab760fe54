import type { Head } from '../../seo/head'
import { Document } from '../document'
import type { LinkItem } from '../parts/link-list'
import { LinkList } from '../parts/link-list'
import type { SearchFormProps } from './search-form'
import { SearchIsland } from './search-form'

export interface SearchPageProps {
  head: Head
  heading: string
  /** What happened, in a sentence: what was missing, or why the visitor is asked to choose. */
  message: string
  form: SearchFormProps
  /** The places the text may mean, or, when it means none, where care is. */
  places: { title: string; items: readonly LinkItem[] }
}

/** The search's own page: a question back when the place was ambiguous, unknown or missing. */
export function SearchPage(props: SearchPageProps) {
  return (
    <Document head={props.head} client>
      <h1>{props.heading}</h1>
      <p className="lede" role="status">
        {props.message}
      </p>
      <SearchIsland {...props.form} />
      <LinkList title={props.places.title} items={props.places.items} />
    </Document>
  )
}
