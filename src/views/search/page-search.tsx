import type { Service } from '../../catalog/services'
import { shownServices } from '../../flags/visibility'
import { useSite } from '../site-context'
import { SearchIsland, searchFormProps } from './search-form'

/** The search form in a page's header, with the page's service chosen (or the first). */
export function PageSearch({ service }: { service: Pick<Service, 'slug'> | null }) {
  return <SearchIsland {...searchFormProps(shownServices(useSite().on), service)} />
}
