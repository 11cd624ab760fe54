import type { KeyboardEvent, RefObject } from 'react'
import { useEffect, useId, useRef, useState } from 'react'
import type { Service } from '../../catalog/services'
import { scriptJson } from '../../seo/json-ld'
import { SEARCH } from '../../urls/search-path'

// The search form (docs/pages.md, "Search"): a plain GET form to /search that works without
// JavaScript, and, once the browser script hydrates it, a combobox that suggests the catalog's
// cities as the visitor types (the ARIA Authoring Practices' combobox with a list popup).

export interface SearchFormProps {
  services: readonly { slug: string; title: string }[]
  /** The service chosen at first: the page's own, or the first. */
  service: string | null
  /** The place typed, shown back on the search page. */
  place: string
  /**
   * What the visitor had typed before the browser script took the form over (it loads React on
   * the first interaction: docs/browser.md): kept, and suggested for at once.
   */
  typedBefore?: string
  /** The cities that `typed` may mean: the browser script's request (src/client/search.ts). */
  suggest?: (typed: string, signal: AbortSignal) => Promise<readonly Suggestion[]>
}

/** A city the typeahead suggests, as `/_data/search` answers it. */
export interface Suggestion {
  slug: string
  name: string
  stateCode: string
}

/** The element id of the script that carries the form's props for hydration. */
export const SEARCH_PROPS_ID = 'search-props'
/** Fewer letters than this suggest too much to help. */
export const MIN_SUGGEST = 2
const DEBOUNCE_MS = 120

export const placeLabel = (s: Pick<Suggestion, 'name' | 'stateCode'>) => `${s.name}, ${s.stateCode}`

/** The form's props on a page: the services shown, the page's own chosen. */
export function searchFormProps(
  services: readonly Pick<Service, 'slug' | 'title'>[],
  service: Pick<Service, 'slug'> | null,
  place = '',
): SearchFormProps {
  return {
    services: services.map(({ slug, title }) => ({ slug, title })),
    service: service?.slug ?? null,
    place,
  }
}

/** The form's root, rendered on the server, and beside it its props for the browser script. */
export function SearchIsland(props: SearchFormProps) {
  return (
    <>
      <div data-search="" className="search-island">
        <SearchForm {...props} />
      </div>
      <script
        type="application/json"
        id={SEARCH_PROPS_ID}
        dangerouslySetInnerHTML={{ __html: scriptJson(props) }}
      />
    </>
  )
}

/** The combobox's suggestions for what the visitor typed, asked for once typing pauses. */
function useSuggestions(
  text: string,
  typed: RefObject<boolean>,
  suggest: SearchFormProps['suggest'],
) {
  const [options, setOptions] = useState<readonly Suggestion[]>([])
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  useEffect(() => {
    if (!typed.current || !suggest) return
    const query = text.trim()
    if (query.length < MIN_SUGGEST || /^\d/.test(query)) {
      setOptions([])
      return
    }
    const abort = new AbortController()
    const timer = setTimeout(() => {
      suggest(query, abort.signal).then(
        (found) => {
          setOptions(found)
          setActive(-1)
          setOpen(found.length > 0)
        },
        () => undefined, // Aborted by newer typing, or offline: the form still submits.
      )
    }, DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [text, typed, suggest])
  return { options, open, setOpen, active, setActive }
}

type Suggestions = ReturnType<typeof useSuggestions>

/** The keys of the ARIA combobox: arrows move through the list, Escape closes it, Enter picks. */
function comboboxKeys(
  { options, setOpen, active, setActive }: Suggestions,
  shown: boolean,
  choose: (s: Suggestion) => void,
) {
  return (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && options.length) {
      e.preventDefault()
      setOpen(true)
      setActive((a) => (a + 1) % options.length)
    } else if (e.key === 'ArrowUp' && options.length) {
      e.preventDefault()
      setOpen(true)
      setActive((a) => (a <= 0 ? options.length - 1 : a - 1))
    } else if (e.key === 'Escape' && shown) {
      e.preventDefault()
      setOpen(false)
      setActive(-1)
    } else if (e.key === 'Enter' && shown && options[active]) {
      // Enter on a suggestion picks it; Enter again searches.
      e.preventDefault()
      choose(options[active])
    }
  }
}

function ServiceField({
  id,
  services,
  service,
}: { id: string } & Pick<SearchFormProps, 'services' | 'service'>) {
  return (
    <div>
      <label htmlFor={`${id}-service`}>Care</label>
      <select id={`${id}-service`} name="service" defaultValue={service ?? services[0]?.slug}>
        {services.map((s) => (
          <option key={s.slug} value={s.slug}>
            {s.title}
          </option>
        ))}
      </select>
    </div>
  )
}

/** The popup list of suggested places and its spoken count (only once the script runs). */
function PlaceOptions({
  id,
  shown,
  suggestions: { options, active },
  choose,
}: {
  id: string
  shown: boolean
  suggestions: Suggestions
  choose: (s: Suggestion) => void
}) {
  return (
    <>
      <ul
        id={`${id}-places`}
        role="listbox"
        aria-label="Places"
        className="search-options"
        hidden={!shown}
      >
        {options.map((s, i) => (
          <li
            key={s.slug}
            id={`${id}-place-${i}`}
            role="option"
            aria-selected={i === active}
            // Before the input's blur closes the list.
            onMouseDown={(e) => {
              e.preventDefault()
              choose(s)
            }}
          >
            {placeLabel(s)}
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {shown ? `${options.length} ${options.length === 1 ? 'place' : 'places'} found` : ''}
      </p>
    </>
  )
}

export function SearchForm({ services, service, place, typedBefore, suggest }: SearchFormProps) {
  // The one id of the form's fields, taken here so that the parts below do not move it.
  const id = useId()
  // Server and hydration render the plain form; the combobox appears once the script runs.
  const [enhanced, setEnhanced] = useState(false)
  const [text, setText] = useState(typedBefore ?? place)
  const typed = useRef(typedBefore !== undefined)
  useEffect(() => setEnhanced(true), [])
  const suggestions = useSuggestions(text, typed, suggest)
  const { open, setOpen, active, setActive, options } = suggestions
  const choose = (s: Suggestion) => {
    typed.current = false
    setText(placeLabel(s))
    setOpen(false)
    setActive(-1)
  }
  const shown = enhanced && open && options.length > 0
  return (
    <form action={SEARCH} method="get" role="search" className="search-form">
      <ServiceField id={id} services={services} service={service} />
      <div className="search-place">
        <label htmlFor={`${id}-place`}>City or ZIP code</label>
        <input
          id={`${id}-place`}
          name="place"
          type="text"
          required
          maxLength={80}
          value={text}
          placeholder="Atlanta, GA or 30303"
          autoComplete={enhanced ? 'off' : 'address-level2'}
          onChange={(e) => {
            typed.current = true
            setText((e.target as unknown as { value: string }).value)
          }}
          onKeyDown={comboboxKeys(suggestions, shown, choose)}
          onBlur={() => setOpen(false)}
          {...(enhanced
            ? {
                role: 'combobox',
                'aria-autocomplete': 'list' as const,
                'aria-expanded': shown,
                'aria-controls': `${id}-places`,
                'aria-activedescendant': shown && active >= 0 ? `${id}-place-${active}` : undefined,
              }
            : {})}
        />
        {enhanced ? (
          <PlaceOptions id={id} shown={shown} suggestions={suggestions} choose={choose} />
        ) : null}
      </div>
      <button type="submit">Search</button>
    </form>
  )
}
