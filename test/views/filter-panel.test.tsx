import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { findService } from '../../src/catalog/services'
import { listingFilterFields, parseListingQuery } from '../../src/queries/listing-query'
import { activeFilters, FilterForm } from '../../src/views/listing/filter-panel'

const PATH = '/babysitters/atlanta-ga'

function fieldsFor(search: string) {
  const service = findService('babysitters')
  if (!service) throw new Error('no babysitters service')
  const parsed = parseListingQuery(new URLSearchParams(search), service)
  if (!parsed.ok) throw new Error(`bad query ${search}`)
  return listingFilterFields(service, parsed.query)
}

describe('the filters in force', () => {
  it('are none on the plain listing, nor for a sort alone', () => {
    expect(activeFilters(PATH, fieldsFor(''))).toEqual([])
    expect(activeFilters(PATH, fieldsFor('sort=newest'))).toEqual([])
  })

  it('each link to the first page without it, the other filters and the sort kept', () => {
    const fields = fieldsFor('distance=5&availability=monday,friday&sort=newest&page=3')
    expect(activeFilters(PATH, fields)).toEqual([
      { label: 'Within 5 miles', href: `${PATH}?availability=monday,friday&sort=newest` },
      { label: 'Monday', href: `${PATH}?availability=friday&distance=5&sort=newest` },
      { label: 'Friday', href: `${PATH}?availability=monday&distance=5&sort=newest` },
    ])
  })

  it('show as chips named for what they remove, with a way to clear them all', () => {
    const html = renderToString(
      <FilterForm path={PATH} filters={fieldsFor('distance=5')} formKey={0} />,
    )
    expect(html).toContain(
      `<a class="chip" href="${PATH}" aria-label="Remove filter: Within 5 miles">`,
    )
    expect(html).toContain(`<a class="chips-clear" href="${PATH}">Clear all</a>`)
    expect(html).toContain('<summary>Filters (1)</summary>')
    expect(
      renderToString(<FilterForm path={PATH} filters={fieldsFor('')} formKey={0} />),
    ).not.toContain('chip')
  })
})
