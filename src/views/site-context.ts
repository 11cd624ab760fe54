import { createContext, useContext } from 'react'
import type { PageKind, PageType } from '../catalog/enums'
import type { Config, FlagName } from '../flags/definitions'
import { CONFIG_DEFAULTS, FLAGS } from '../flags/definitions'

/** The tag manager data layer of a page (docs/flags.md, "Configuration keys"). */
export interface DataLayer {
  pageType: PageType | null
  pageId: number | null
  pageKind: PageKind | null
  vertical: string | null
  service: string | null
  city: string | null
}

/** What every view may need about the request: flags, configuration, the CSP nonce. */
export interface Site {
  on: (name: FlagName) => boolean
  config: Config
  /** The per-response nonce of inline scripts (Content-Security-Policy). */
  nonce: string
  dataLayer: DataLayer
  /**
   * The page's own path, where its calls to action come from. A stored page is shared by every
   * visitor of its path, so the path is all a link may say about where it is.
   */
  path: string
  /** The public Sentry DSN of the browser script (SENTRY_BROWSER_DSN), and the environment. */
  browser: { dsn: string | null; environment: string }
  /** Cloudflare Turnstile's site key (TURNSTILE_SITE_KEY) for the message form; null: none. */
  turnstileSiteKey: string | null
}

export const DEFAULT_SITE: Site = {
  on: (name) => FLAGS[name].default,
  config: CONFIG_DEFAULTS,
  nonce: '',
  dataLayer: {
    pageType: null,
    pageId: null,
    pageKind: null,
    vertical: null,
    service: null,
    city: null,
  },
  browser: { dsn: null, environment: 'production' },
  turnstileSiteKey: null,
  path: '/',
}

export const SiteContext = createContext<Site>(DEFAULT_SITE)

export function useSite(): Site {
  return useContext(SiteContext)
}
