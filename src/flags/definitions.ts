// Every feature flag and configuration key, with its documented default (what a page gets when
// the flag store is empty, malformed or unreachable), its visible effect and the pages it
// shapes: a response's variant keys on exactly the values of the flags and keys that shape its
// page (src/flags/evaluate.ts), and a page that reads anything else is not stored
// (src/flags/flags-middleware.ts). The README's tables are this file.

import type { Surface } from './page-surface'
import { EVERY_PAGE, HTML_PAGES } from './page-surface'

/** Pages with a call to action or a buying-intent question into the visitor flow. */
const WITH_CALL_TO_ACTION = HTML_PAGES.filter((s) => s !== 'other')

export const FLAGS = {
  daycareDirectoryFlow: {
    default: true,
    effect: 'the day-care directory pages and every link to them exist (off: 404)',
    shapes: EVERY_PAGE,
  },
  pillarPageRouting: {
    default: true,
    effect:
      'national service pages use the pillar layout (figures, guides, top cities, states) instead of the simple one',
    shapes: ['serviceNational'],
  },
  providerSignUpBanner: {
    default: false,
    effect: 'activities pages show a banner inviting providers to list their camps and classes',
    shapes: ['activities'],
  },
  rankedDirectorySorting: {
    default: true,
    effect: 'RECOMMENDED orders directories by ranking score; off, by recency',
    shapes: ['directory'],
  },
  campsFilter: {
    default: true,
    effect: 'activities pages offer the onlyCampActivities filter (off: the parameter is ignored)',
    shapes: ['activities'],
  },
  embeddedGuestMessaging: {
    default: false,
    effect: 'profiles show a message button to visitors',
    shapes: ['profile'],
  },
  adultCareEnrollmentRollout: {
    default: false,
    effect: 'adult care calls to action go straight to the new enrollment step (who needs care)',
    shapes: WITH_CALL_TO_ACTION,
  },
  cookingCategory: {
    default: true,
    effect: 'the cooking activities page and links to it exist (off: 404)',
    shapes: ['activities', 'sitemap'],
  },
  robustDaycareCards: {
    default: false,
    effect: 'daycare cards show age groups, schedules, capacity and hours',
    shapes: ['directory', 'serviceState', 'profile'],
  },
} as const satisfies Record<
  string,
  { default: boolean; effect: string; shapes: readonly Surface[] }
>

export type FlagName = keyof typeof FLAGS
export const FLAG_NAMES = Object.keys(FLAGS) as FlagName[]

export interface Config {
  /** The data layer and the tag manager snippet, allowed by the page's CSP nonce. */
  tagManagerEnabled: boolean
  tagManagerId: string
  /** Share of requests traced by error reporting, on the server and in the browser. */
  traceSampleRates: { server: number; client: number }
  /** Text size and contrast controls in the page header, without JavaScript. */
  accessibilityWidgetEnabled: boolean
  /** City-level cost guides exist; off, only the national ones (city guides answer 404). */
  costGuideLocalPage: boolean
  /** The greater-care reskin: an alternate theme. */
  greaterCareReskin: boolean
}

export const CONFIG_DEFAULTS: Config = {
  tagManagerEnabled: false,
  tagManagerId: 'GTM-CAREEDGE',
  traceSampleRates: { server: 0.1, client: 0.05 },
  accessibilityWidgetEnabled: false,
  costGuideLocalPage: true,
  greaterCareReskin: false,
}

/**
 * What of each configuration key reaches a page, and which pages: the variant keys on exactly
 * these values, so a change the pages cannot show (the server's trace sampling rate, the tag
 * manager id while the tag manager is off) keeps every stored page.
 */
export const CONFIG_IN_PAGES: {
  [K in keyof Config]: { shapes: readonly Surface[]; shown: (config: Config) => unknown }
} = {
  tagManagerEnabled: { shapes: HTML_PAGES, shown: (c) => c.tagManagerEnabled },
  tagManagerId: {
    shapes: HTML_PAGES,
    shown: (c) => (c.tagManagerEnabled ? c.tagManagerId : null),
  },
  // The server rate only samples error reporting; the client rate is in the page.
  traceSampleRates: { shapes: HTML_PAGES, shown: (c) => c.traceSampleRates.client },
  accessibilityWidgetEnabled: { shapes: HTML_PAGES, shown: (c) => c.accessibilityWidgetEnabled },
  costGuideLocalPage: {
    shapes: ['directory', 'costNational', 'costCity', 'sitemap'],
    shown: (c) => c.costGuideLocalPage,
  },
  greaterCareReskin: { shapes: HTML_PAGES, shown: (c) => c.greaterCareReskin },
}
