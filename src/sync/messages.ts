import { z } from 'zod'
import {
  ACTIVITY_AGE_GROUPS,
  ACTIVITY_CATEGORIES,
  PARTICIPATION_TYPES,
} from '../catalog/activities'
import type { Labelled } from '../catalog/enums'
import {
  BADGES,
  CERTIFICATIONS,
  LANGUAGES,
  PAY_UNITS,
  RATING_CATEGORIES,
  TRAITS,
  WEEKDAYS,
} from '../catalog/enums'
import { findJobService, JOB_REQUIREMENTS, JOB_SCHEDULES, JOB_TYPES } from '../catalog/jobs'
import { ID, RANGES } from '../catalog/ranges'
import type { Range } from '../catalog/ranges'
import { findService, SERVICES } from '../catalog/services'
import type { VersionedEntity } from '../catalog/version-key'
import { versionKey } from '../catalog/version-key'
import { STATES } from '../catalog/states'
import { describeFault, textFault } from '../lib/text-rule'

// The catalog's change contract (docs/sync.md): one message per change of one entity, each with
// the entity's id, its version and, for everything but a removal, the whole entity as the pages
// show it, in the vocabulary of src/catalog (service slugs, coded lists, badges). Lists stored in
// D1 as bitmasks travel as lists of codes, so a source never needs to know the bit order.

/**
 * A whole number within `range` (src/catalog/ranges.ts), refused with the range it is outside.
 * zod's own bounds, so the JSON Schema (npm run schema) states them too.
 */
const whole = ({ min, max }: Range) => {
  const error = `must be a whole number from ${min} to ${max}`
  // A missing value keeps zod's own reason ("expected number, received undefined").
  const given = (issue: { input?: unknown }) => (issue.input === undefined ? undefined : error)
  return z.int({ error: given }).min(min, { error }).max(max, { error })
}
/** A number within `range`. */
const within = ({ min, max }: Range) => {
  const error = `must be a number from ${min} to ${max}`
  const given = (issue: { input?: unknown }) => (issue.input === undefined ? undefined : error)
  return z.number({ error: given }).min(min, { error }).max(max, { error })
}
/** An entity's id: one its pages route (src/urls/paths.ts reads every id of ID). */
const id = whole(ID)
/**
 * Monotonic per entity, such as the source's `updated_at` in milliseconds: a message whose version
 * is not newer than the one applied changes nothing.
 */
const version = whole(RANGES.version)
/**
 * A text of at most `max` characters under the text rule (src/lib/text-rule.ts), checked as sent,
 * so a refused character's position is where the source has it; then trimmed. `lineBreaks`: a
 * field of paragraphs, which keeps its line feeds.
 */
const text = (max: number, { lineBreaks = false } = {}) =>
  z
    .string()
    .superRefine((value, ctx) => {
      const fault = textFault(value, { lineBreaks })
      if (fault) ctx.addIssue({ code: 'custom', message: describeFault(fault) })
    })
    .trim()
    .min(1)
    .max(max)
const paragraphs = (max: number) => text(max, { lineBreaks: true })
const optionalText = (max: number) => text(max).nullable()
/** An instant in UTC, such as 2026-05-01T12:00:00Z. */
const instant = z.iso.datetime()
const day = z.iso.date()
const latitude = within(RANGES.latitude)
const longitude = within(RANGES.longitude)
const money = whole(RANGES.money)
const rankScore = z.number().finite()

function codes<C extends string>(values: readonly C[]) {
  return z
    .array(z.enum(values as [C, ...C[]]))
    .refine((list) => new Set(list).size === list.length, 'lists a code twice')
}
const codesOf = (list: readonly Labelled[]) => codes(list.map((item) => item.code))

/** That each code of `list` is one of `allowed`, as issues on `path`. */
function checkCodes(
  ctx: z.RefinementCtx,
  list: readonly string[],
  allowed: readonly Labelled[],
  path: (string | number)[],
  owner: string,
): void {
  const known = new Set(allowed.map((item) => item.code))
  list.forEach((code, i) => {
    if (!known.has(code))
      ctx.addIssue({
        code: 'custom',
        path: [...path, i],
        message: allowed.length
          ? `"${code}" is not one of the codes of ${owner} (${[...known].join(', ')})`
          : `${owner} has no such list: leave it empty`,
      })
  })
}

const serviceSlug = z.enum(SERVICES.map((s) => s.slug) as [string, ...string[]])

export const citySchema = z
  .object({
    name: text(100),
    stateCode: z.enum(Object.keys(STATES) as [string, ...string[]]),
    lat: latitude,
    lng: longitude,
    population: whole(RANGES.population),
  })
  .strict()

export const providerSchema = z
  .object({
    firstName: text(100),
    lastName: text(100),
    businessType: z.enum(['CAREGIVER', 'SMB']),
    /** A business's name: SMB only. */
    businessName: optionalText(200),
    cityId: id,
    lat: latitude,
    lng: longitude,
    headline: text(300),
    bio: paragraphs(5000),
    /** An absolute https URL of the provider's photo; null: the page draws an initials avatar. */
    photoUrl: z
      .url({ protocol: /^https$/ })
      .max(2048)
      .nullable(),
    yearsExperience: whole(RANGES.yearsExperience),
    badges: codesOf(BADGES),
    availability: codesOf(WEEKDAYS),
    traits: codesOf(TRAITS),
    languages: codes(LANGUAGES),
    certifications: codes(CERTIFICATIONS),
    education: optionalText(200),
    /** SMB only: children cared for at once, opening hours ("7:00 AM – 6:00 PM"), street address. */
    capacity: whole(RANGES.capacity).nullable(),
    openingHours: optionalText(100),
    address: optionalText(300),
    createdAt: instant,
    updatedAt: instant,
  })
  .strict()
  .superRefine((p, ctx) => {
    if ((p.businessType === 'SMB') !== (p.businessName !== null))
      ctx.addIssue({
        code: 'custom',
        path: ['businessName'],
        message: 'a business (SMB) has a business name, a caregiver none',
      })
  })

/** What a provider's listing under one service shows: rates and the service's coded lists. */
export const listingSchema = z
  .object({
    rateMin: money,
    rateMax: money,
    ages: z.array(z.string()),
    options: z.array(z.string()),
    schedules: z.array(z.string()),
    /** The source's recommended order: higher first. */
    rankScore,
    /** When the provider first offered the service: the newest-first order. */
    createdAt: instant,
  })
  .strict()

export const reviewSchema = z
  .object({
    providerId: id,
    service: serviceSlug,
    /** "Jennifer K." */
    author: text(100),
    rating: whole(RANGES.rating),
    /** Rating categories other than OVERALL (the `rating`), each 1 to 5. */
    ratings: z.partialRecord(
      z.enum(RATING_CATEGORIES.filter((c) => c !== 'OVERALL') as [string, ...string[]]),
      whole(RANGES.rating),
    ),
    body: paragraphs(5000),
    createdAt: instant,
  })
  .strict()

export const jobSchema = z
  .object({
    title: text(200),
    /** A job service slug: babysitting-jobs, senior-care-jobs… */
    service: z.string(),
    jobType: z.enum(JOB_TYPES.map((t) => t.code) as ['SEEKER_JOB', 'SMB_JOB']),
    /** "Jennifer K." or a business name. */
    employer: text(200),
    cityId: id,
    lat: latitude,
    lng: longitude,
    description: paragraphs(5000),
    payMin: money,
    payMax: money,
    payUnit: z.enum(PAY_UNITS),
    schedule: z.enum(JOB_SCHEDULES.map((s) => s.code) as [string, ...string[]]),
    /** null for one-time jobs. */
    hoursPerWeek: whole(RANGES.hoursPerWeek).nullable(),
    startDate: day,
    /** How many children; 0 when not a child care job. */
    children: whole(RANGES.children),
    /** Codes of the ages of the job's provider service. */
    ages: z.array(z.string()),
    requirements: codesOf(JOB_REQUIREMENTS),
    rankScore,
    postedAt: instant,
    /** From this instant the job is expired: its page answers 410. */
    validThrough: instant,
  })
  .strict()
  .superRefine((j, ctx) => {
    const jobService = findJobService(j.service)
    if (!jobService) {
      ctx.addIssue({
        code: 'custom',
        path: ['service'],
        message: `"${j.service}" is not a job service`,
      })
      return
    }
    checkCodes(ctx, j.ages, jobService.service.ages, ['ages'], jobService.service.slug)
    if (j.payMax < j.payMin)
      ctx.addIssue({ code: 'custom', path: ['payMax'], message: 'is below payMin' })
  })

const ACTIVITY_SUBCATEGORIES = new Map(
  ACTIVITY_CATEGORIES.map((c) => [c.slug, new Set(c.subcategories.map((s) => s.slug))]),
)

export const activitySchema = z
  .object({
    name: text(200),
    organizer: text(200),
    /** The partner that listed it. */
    source: text(100),
    /** A category keyword (music, outdoor-and-adventure…) and one of its subcategories, or null. */
    category: z.enum(ACTIVITY_CATEGORIES.map((c) => c.slug) as [string, ...string[]]),
    subcategory: z.string().nullable(),
    participation: z.enum(PARTICIPATION_TYPES.map((p) => p.code) as ['IN_PERSON', 'ONLINE']),
    ages: codesOf(ACTIVITY_AGE_GROUPS),
    days: codesOf(WEEKDAYS),
    /** null for ongoing classes. */
    startDate: day.nullable(),
    endDate: day.nullable(),
    isCamp: z.boolean(),
    price: money,
    priceUnit: z.enum(['session', 'wk', 'mo', 'flat']),
    description: paragraphs(5000),
    /** null when online. */
    cityId: id.nullable(),
    venue: optionalText(200),
    address: optionalText(300),
    rankScore,
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.subcategory !== null && !ACTIVITY_SUBCATEGORIES.get(a.category)?.has(a.subcategory))
      ctx.addIssue({
        code: 'custom',
        path: ['subcategory'],
        message: `"${a.subcategory}" is not a subcategory of ${a.category}`,
      })
    if ((a.participation === 'ONLINE') !== (a.cityId === null))
      ctx.addIssue({
        code: 'custom',
        path: ['cityId'],
        message: 'an in-person activity has a city, an online one none',
      })
    if (a.startDate !== null && a.endDate !== null && a.endDate < a.startDate)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'is before startDate' })
  })

/** That a listing's coded lists are those of its service and its rates are in order. */
function checkListing(
  ctx: z.RefinementCtx,
  service: string,
  listing: z.infer<typeof listingSchema>,
): void {
  const s = findService(service)
  if (!s) return
  checkCodes(ctx, listing.ages, s.ages, ['entity', 'ages'], service)
  checkCodes(ctx, listing.options, s.options, ['entity', 'options'], service)
  checkCodes(ctx, listing.schedules, s.schedules, ['entity', 'schedules'], service)
  if (listing.rateMax < listing.rateMin)
    ctx.addIssue({ code: 'custom', path: ['entity', 'rateMax'], message: 'is below rateMin' })
}

const change = <K extends string, E extends z.ZodType>(kind: K, entity: E) =>
  z.object({ kind: z.literal(kind), id, version, entity }).strict()
const removal = <K extends string>(kind: K) =>
  z.object({ kind: z.literal(kind), id, version }).strict()

export const MESSAGE_SCHEMAS = {
  'city.added': change('city.added', citySchema),
  'provider.upserted': change('provider.upserted', providerSchema),
  'provider.removed': removal('provider.removed'),
  'provider-service.offered': z
    .object({
      kind: z.literal('provider-service.offered'),
      /** The provider's id: a listing is the provider and the service. */
      id,
      service: serviceSlug,
      version,
      entity: listingSchema,
    })
    .strict()
    .superRefine((m, ctx) => checkListing(ctx, m.service, m.entity)),
  'provider-service.withdrawn': z
    .object({ kind: z.literal('provider-service.withdrawn'), id, service: serviceSlug, version })
    .strict(),
  'review.added': change('review.added', reviewSchema),
  'review.removed': removal('review.removed'),
  'job.upserted': change('job.upserted', jobSchema),
  /** The job as it was when closed: its page answers 410 from `closedAt`. */
  'job.closed': z
    .object({ kind: z.literal('job.closed'), id, version, closedAt: instant, entity: jobSchema })
    .strict(),
  'activity.upserted': change('activity.upserted', activitySchema),
  'activity.removed': removal('activity.removed'),
} as const

export type MessageKind = keyof typeof MESSAGE_SCHEMAS
export const MESSAGE_KINDS = Object.keys(MESSAGE_SCHEMAS) as MessageKind[]

export const messageSchema = z.discriminatedUnion('kind', [
  MESSAGE_SCHEMAS['city.added'],
  MESSAGE_SCHEMAS['provider.upserted'],
  MESSAGE_SCHEMAS['provider.removed'],
  MESSAGE_SCHEMAS['provider-service.offered'],
  MESSAGE_SCHEMAS['provider-service.withdrawn'],
  MESSAGE_SCHEMAS['review.added'],
  MESSAGE_SCHEMAS['review.removed'],
  MESSAGE_SCHEMAS['job.upserted'],
  MESSAGE_SCHEMAS['job.closed'],
  MESSAGE_SCHEMAS['activity.upserted'],
  MESSAGE_SCHEMAS['activity.removed'],
])

export type CatalogMessage = z.infer<typeof messageSchema>
export type MessageOf<K extends MessageKind> = Extract<CatalogMessage, { kind: K }>
export type City = z.infer<typeof citySchema>
export type Provider = z.infer<typeof providerSchema>
export type Listing = z.infer<typeof listingSchema>
export type Review = z.infer<typeof reviewSchema>
export type Job = z.infer<typeof jobSchema>
export type Activity = z.infer<typeof activitySchema>

/** The most messages one request or one queue message batch may carry. */
export const MAX_MESSAGES = 1000

/** A refused message: its place in the batch and every reason, each naming the field. */
export interface Refusal {
  index: number
  kind: string | null
  id: number | null
  reasons: string[]
}

export type Validation =
  { ok: true; messages: CatalogMessage[] } | { ok: false; refused: Refusal[] }

/** The reasons `input` is not a catalog message, each `field: what is wrong`; empty when it is one. */
export function messageProblems(input: unknown): string[] {
  const parsed = messageSchema.safeParse(input)
  if (parsed.success) return []
  const reasons = parsed.error.issues.map((issue) => {
    const field = issue.path.map(String).join('.')
    if (issue.code === 'invalid_union' && field === 'kind')
      return `kind: not one of ${MESSAGE_KINDS.join(', ')}`
    return `${field || '(message)'}: ${issue.message}`
  })
  // A value past 2^53 − 1 fails both zod's own bound of an int and the field's: one reason.
  return [...new Set(reasons)]
}

/** One message, parsed, or its reasons. */
export function parseMessage(
  input: unknown,
): { ok: true; message: CatalogMessage } | { ok: false; reasons: string[] } {
  const parsed = messageSchema.safeParse(input)
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, reasons: messageProblems(input) }
}

/**
 * A whole batch: every message valid, or every refused one with its reasons (the batch is then
 * refused whole: nothing of it is applied).
 */
export function validateMessages(input: unknown): Validation {
  if (!Array.isArray(input))
    return {
      ok: false,
      refused: [
        { index: -1, kind: null, id: null, reasons: ['(batch): expected an array of messages'] },
      ],
    }
  if (input.length === 0)
    return {
      ok: false,
      refused: [{ index: -1, kind: null, id: null, reasons: ['(batch): no messages'] }],
    }
  if (input.length > MAX_MESSAGES)
    return {
      ok: false,
      refused: [
        {
          index: -1,
          kind: null,
          id: null,
          reasons: [`(batch): ${input.length} messages, at most ${MAX_MESSAGES} in one batch`],
        },
      ],
    }
  const messages: CatalogMessage[] = []
  const refused: Refusal[] = []
  input.forEach((item: unknown, index) => {
    const parsed = parseMessage(item)
    if (parsed.ok) messages.push(parsed.message)
    else
      refused.push({
        index,
        kind: field(item, 'kind'),
        id: field(item, 'id'),
        reasons: parsed.reasons,
      })
  })
  return refused.length ? { ok: false, refused } : { ok: true, messages }
}

function field<T extends 'kind' | 'id'>(
  item: unknown,
  name: T,
): (T extends 'id' ? number : string) | null {
  if (typeof item !== 'object' || item === null || !(name in item)) return null
  const value: unknown = (item as Record<string, unknown>)[name]
  const ok =
    name === 'id' ? Number.isSafeInteger(value) : typeof value === 'string' && value.length <= 100
  return ok ? (value as T extends 'id' ? number : string) : null
}

/** The entity each kind of message changes. */
const ENTITY_OF: Record<MessageKind, VersionedEntity> = {
  'city.added': 'city',
  'provider.upserted': 'provider',
  'provider.removed': 'provider',
  'provider-service.offered': 'listing',
  'provider-service.withdrawn': 'listing',
  'review.added': 'review',
  'review.removed': 'review',
  'job.upserted': 'job',
  'job.closed': 'job',
  'activity.upserted': 'activity',
  'activity.removed': 'activity',
}

/** The key of the entity a message changes: the same for every version of it. */
export function entityKey(message: CatalogMessage): string {
  return versionKey(
    ENTITY_OF[message.kind],
    message.id,
    'service' in message ? message.service : undefined,
  )
}
