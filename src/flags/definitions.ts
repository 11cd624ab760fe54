import type { Config } from './schema'

// Every feature flag and configuration key, with its documented default (what a page gets when
// the flag store is empty, malformed or unreachable) and its visible effect. Each row of the
// page table (src/pages.ts) names the flags and keys that shape its page: a response's
// variant keys on exactly their values (src/flags/evaluate.ts), and a page that reads anything
// else is not stored (src/flags/flags-middleware.ts). docs/flags.md tells them in words.

export const FLAGS = {
  daycareDirectoryFlow: {
    default: true,
    effect: 'the day-care directory pages and every link to them exist (off: 404)',
  },
  pillarPageRouting: {
    default: true,
    effect:
      'national service pages use the pillar layout (figures, guides, top cities, states) instead of the simple one',
  },
  providerSignUpBanner: {
    default: false,
    effect: 'activities pages show a banner inviting providers to list their camps and classes',
  },
  rankedDirectorySorting: {
    default: true,
    effect: 'RECOMMENDED orders directories by ranking score; off, by recency',
  },
  campsFilter: {
    default: true,
    effect: 'activities pages offer the onlyCampActivities filter (off: the parameter is ignored)',
  },
  embeddedGuestMessaging: {
    default: false,
    effect: 'profiles offer visitors a message form (off: no form, and its post is a 404)',
  },
  adultCareEnrollmentRollout: {
    default: false,
    effect:
      'adult care calls to action go straight to the new enrollment step, which then asks the intent too',
  },
  cookingCategory: {
    default: true,
    effect: 'the cooking activities page and links to it exist (off: 404)',
  },
  robustDaycareCards: {
    default: false,
    effect: 'daycare cards show age groups, schedules, capacity and hours',
  },
} as const satisfies Record<string, { default: boolean; effect: string }>

export type FlagName = keyof typeof FLAGS
export const FLAG_NAMES = Object.keys(FLAGS) as FlagName[]

/** The value of every configuration key; its schema (src/flags/schema.ts) says what each is. */
export type { Config }

export const CONFIG_DEFAULTS: Config = {
  tagManagerEnabled: false,
  tagManagerId: 'GTM-CAREEDGE',
  traceSampleRates: { server: 0.1, client: 0.05 },
  accessibilityWidgetEnabled: false,
  costGuideLocalPage: true,
  greaterCareReskin: false,
}

/**
 * What of each configuration key reaches a page: the variant keys on exactly these values, so
 * a change the pages cannot show (the server's trace sampling rate, the tag manager id while
 * the tag manager is off) keeps every stored page.
 */
export const CONFIG_SHOWN: { [K in keyof Config]: (config: Config) => unknown } = {
  tagManagerEnabled: (c) => c.tagManagerEnabled,
  tagManagerId: (c) => (c.tagManagerEnabled ? c.tagManagerId : null),
  // The server rate only samples error reporting; the client rate is in the page.
  traceSampleRates: (c) => c.traceSampleRates.client,
  accessibilityWidgetEnabled: (c) => c.accessibilityWidgetEnabled,
  costGuideLocalPage: (c) => c.costGuideLocalPage,
  greaterCareReskin: (c) => c.greaterCareReskin,
}

/** A flag or configuration key: what a page table row says shapes its page. */
export type Shaping = FlagName | keyof Config

/** What shapes every response, the XML and text files for crawlers included. */
export const EVERY_PAGE_FLAGS: readonly Shaping[] = ['daycareDirectoryFlow']
/** What shapes every page rendered through the HTML document (its header, theme, scripts). */
export const DOCUMENT_FLAGS: readonly Shaping[] = [
  ...EVERY_PAGE_FLAGS,
  'tagManagerEnabled',
  'tagManagerId',
  'traceSampleRates',
  'accessibilityWidgetEnabled',
  'greaterCareReskin',
]
/** What shapes pages with a call to action or a buying-intent question into the visitor flow. */
export const CALL_TO_ACTION_FLAGS: readonly Shaping[] = [
  ...DOCUMENT_FLAGS,
  'adultCareEnrollmentRollout',
]
