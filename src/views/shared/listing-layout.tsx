import type { ReactNode } from 'react'
import { PAGE_SIZE } from '../../catalog/filters'
import type { FilterField } from '../../routes/filter-fields'
import type { Head } from '../../seo/head'
import type { Crumb } from '../../seo/json-ld'
import { Pagination } from './pagination'
import { Document } from '../document'
import { Breadcrumbs } from './breadcrumbs'
import { FilterForm } from './filter-form'

export interface ListingLayoutProps {
  head: Head
  crumbs: readonly Crumb[]
  title: string
  lede: string | null
  /** Said before the results, e.g. that the page is thin. */
  notice: string | null
  cta: ReactNode
  filters: readonly FilterField[]
  /** The plain listing's path: the form's action and the way back from filters. */
  action: string
  filtered: boolean
  total: number
  page: number
  sort: string
  pageHref: (page: number) => string
  /** The cards of this page, as <li> elements. */
  cards: readonly ReactNode[]
  /** What to say when there is nothing to show, before the link back. */
  empty: string
  children?: ReactNode
}

/** The frame of every listing page: heading, call to action, filters, results, pages, then modules. */
export function ListingLayout(props: ListingLayoutProps) {
  const last = Math.max(1, Math.ceil(props.total / PAGE_SIZE))
  const first = (props.page - 1) * PAGE_SIZE + 1
  return (
    <Document head={props.head}>
      <Breadcrumbs crumbs={props.crumbs} />
      <h1>{`${props.title}${props.page > 1 ? ` (page ${props.page})` : ''}`}</h1>
      {props.lede ? <p className="lede">{props.lede}</p> : null}
      {props.notice ? <p className="notice">{props.notice}</p> : null}
      {props.cta}
      <FilterForm fields={props.filters} action={props.action} />
      {props.cards.length ? (
        <>
          <div className="results-head">
            <span>{`Showing ${first}–${first + props.cards.length - 1} of ${props.total.toLocaleString('en-US')}`}</span>
            <span>{`Sorted by ${props.sort}`}</span>
          </div>
          <ul className="cards">{props.cards}</ul>
          <Pagination current={props.page} last={last} href={props.pageHref} />
        </>
      ) : (
        <p className="notice">
          {props.empty}
          {props.filtered ? (
            <>
              {' '}
              <a href={props.action}>Clear the filters</a>
              {' to see everything.'}
            </>
          ) : null}
        </p>
      )}
      {props.children}
    </Document>
  )
}
