// Every feature flag and configuration key, with its documented default (what a page gets when
// the flag store is empty, malformed or unreachable) and its visible effect. The README's table
// is this file.

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
  embeddedGuestMessaging: { default: false, effect: 'profiles show a message button to visitors' },
  adultCareEnrollmentRollout: {
    default: false,
    effect: 'adult care calls to action go straight to the new enrollment step (who needs care)',
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
