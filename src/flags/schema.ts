import { z } from 'zod'
import { PAGE_TYPES } from '../catalog/enums'
import { VERTICALS } from '../catalog/verticals'
import type { VerticalCode } from '../catalog/verticals'

// The flag store: one KV document (key FLAGS_KEY) holding every flag and configuration key.
// Unknown fields are errors: a typo must not silently mean "default".

export const FLAGS_KEY = 'flags'

export const FEATURE_STATES = ['ENABLED', 'DISABLED', 'INVALID'] as const

const slugs = z.array(z.string().regex(/^[a-z0-9-]+$/)).nonempty()

/** A targeting rule: every condition given must hold; then the rollout decides. */
export const ruleSchema = z
  .object({
    pageTypes: z.array(z.enum(PAGE_TYPES)).nonempty().optional(),
    services: slugs.optional(),
    verticals: z
      .array(z.enum(Object.keys(VERTICALS) as [VerticalCode, ...VerticalCode[]]))
      .nonempty()
      .optional(),
    cities: slugs.optional(),
    states: z
      .array(z.string().regex(/^[A-Z]{2}$/))
      .nonempty()
      .optional(),
    /** Share of matching visitors, by a hash of care_did; 100 when absent. */
    percentage: z.number().min(0).max(100).optional(),
    value: z.boolean().optional(),
  })
  .strict()

export const flagSchema = z
  .object({
    state: z.enum(FEATURE_STATES),
    /** Served when the flag is off or no rule matches; the documented default when absent. */
    default: z.boolean().optional(),
    /** Ordered; the first that matches wins. Absent: one rule that matches everyone. */
    rules: z.array(ruleSchema).optional(),
    /** Per device (care_did): a fixed value, before any rule. */
    overrides: z.record(z.string().uuid(), z.boolean()).optional(),
  })
  .strict()

/** Every configuration key: what a page reads, each key filled in from CONFIG_DEFAULTS. */
const configKeysSchema = z
  .object({
    /** The data layer and the tag manager snippet, allowed by the page's CSP nonce. */
    tagManagerEnabled: z.boolean(),
    tagManagerId: z.string().regex(/^GTM-[A-Z0-9]{4,12}$/),
    /** Share of requests traced by error reporting, on the server and in the browser. */
    traceSampleRates: z
      .object({ server: z.number().min(0).max(1), client: z.number().min(0).max(1) })
      .strict(),
    /** Text size and contrast controls in the page header, without JavaScript. */
    accessibilityWidgetEnabled: z.boolean(),
    /** City-level cost guides exist; off, only the national ones (city guides answer 404). */
    costGuideLocalPage: z.boolean(),
    /** The greater-care reskin: an alternate theme. */
    greaterCareReskin: z.boolean(),
  })
  .strict()

/** The store's configuration: any key may be left out, and then keeps its default. */
export const configSchema = configKeysSchema.partial()

export const documentSchema = z
  .object({
    flags: z.record(z.string(), z.unknown()).optional(),
    config: z.unknown().optional(),
  })
  .strict()

export type Rule = z.infer<typeof ruleSchema>
export type FlagDocument = z.infer<typeof flagSchema>
export type Config = z.infer<typeof configKeysSchema>
