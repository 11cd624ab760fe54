// Enumerations of the product (docs/data.md, "The catalog as data"), `{product}` read as
// `care`.
// Pure data: the pages, the generator and the D1 bitmasks all index into these lists,
// so their order is part of the stored data. Append, never reorder.

export const PAGE_TYPES = [
  'seoProviderProfile',
  'seoSearchListing',
  'seoJobDetail',
  'costGuide',
  'campsAndActivities',
] as const
export type PageType = (typeof PAGE_TYPES)[number]

export const PAGE_KINDS = [
  'INVALID',
  'PROVIDERS',
  'JOBS',
  'SEGMENTATION_STATE',
  'ALL_SERVICES_CITY',
] as const
export type PageKind = (typeof PAGE_KINDS)[number]

export const PAGE_IDS = { provider: 1050, job: 1061 } as const

export const CARE_TYPES = [
  'AU_PAIR',
  'CARE_GIGS',
  'CHILD_CARE',
  'GENERIC',
  'HOUSEKEEPING',
  'PET_CARE',
  'SENIOR_CARE',
  'SPECIAL_NEEDS',
  'TUTORING',
] as const
export type CareType = (typeof CARE_TYPES)[number]

/** The product's service ids. */
export const SERVICE_IDS = [
  'academic',
  'activities',
  'art',
  'babysitter',
  'campsLocation',
  'careGigs',
  'careGigsJob',
  'childCare',
  'childCareAfterSchoolCare',
  'childCareJob',
  'childCareLocation',
  'cooking',
  'dance',
  'family_CHILDCARE',
  'homeCareLocation',
  'housekeeping',
  'housekeepingJob',
  'housingLocation',
  'music',
  'nanny',
  'nannyShare',
  'outdoorAndAdventure',
  'petCare',
  'petCareJob',
  'petDayCareLocation',
  'petSittingWalking',
  'seniorCare',
  'seniorCareJob',
  'specialNeeds',
  'specialNeedsJob',
  'sports',
  'stem',
  'summerChildCareJob',
  'tutoring',
  'tutoringAfterSchoolCare',
  'tutoringJob',
  // Ours: the product names the AU_PAIR and ERRANDS verticals but no service id for them.
  'auPair',
  'errands',
] as const
export type ServiceId = (typeof SERVICE_IDS)[number]

export const BUSINESS_TYPES = ['CAREGIVER', 'SMB', 'HYBRID', 'JOB'] as const
export type BusinessType = (typeof BUSINESS_TYPES)[number]

/** The product's sort orders, by the value of a listing's `sort` parameter; the first is the default. */
export const SORT_ORDERS = [
  { code: 'RECOMMENDED', slug: 'recommended', label: 'Recommended' },
  { code: 'NEWEST', slug: 'newest', label: 'Newest' },
] as const satisfies readonly Labelled[]
export type Sort = (typeof SORT_ORDERS)[number]['slug']
export const DEFAULT_SORT: Sort = SORT_ORDERS[0].slug

export const LISTING_SCOPES = ['BRAND', 'COLLEGE', 'LOCAL', 'NATIONAL'] as const
export const SEO_PAGE_SECTIONS = [
  'ARTICLES',
  'JOBS',
  'RELATED_SERVICES',
  'RESOURCES',
  'TOP_CITIES',
] as const

export const FILTER_TYPES = [
  'AGE',
  'AVAILABILITY',
  'DISTANCE',
  'EXPERIENCE_WITH_AGES',
  'HOURS',
  'JOB_TYPE',
  'PAY_RATE',
  'SCHEDULE',
  'SERVICES',
  'SUBJECT_AREA',
  'YEARS_OF_EXPERIENCE',
] as const
export type FilterType = (typeof FILTER_TYPES)[number]

export const PAY_UNITS = ['day', 'hr', 'mo', 'wk', 'flat', 'night', 'session'] as const
export type PayUnit = (typeof PAY_UNITS)[number]

/** A label and a URL value for each member of a list stored as a bitmask. */
export interface Labelled<C extends string = string> {
  code: C
  slug: string
  label: string
}

export const WEEKDAYS: readonly Labelled[] = [
  { code: 'MONDAY', slug: 'monday', label: 'Monday' },
  { code: 'TUESDAY', slug: 'tuesday', label: 'Tuesday' },
  { code: 'WEDNESDAY', slug: 'wednesday', label: 'Wednesday' },
  { code: 'THURSDAY', slug: 'thursday', label: 'Thursday' },
  { code: 'FRIDAY', slug: 'friday', label: 'Friday' },
  { code: 'SATURDAY', slug: 'saturday', label: 'Saturday' },
  { code: 'SUNDAY', slug: 'sunday', label: 'Sunday' },
]

export const BADGES: readonly Labelled[] = [
  { code: 'BACKGROUND_CHECK', slug: 'background-check', label: 'Background check' },
  { code: 'PREMIUM', slug: 'premium', label: 'Premium' },
  { code: 'VACCINATED', slug: 'vaccinated', label: 'Vaccinated' },
]

export const CHILD_AGE_GROUPS: readonly Labelled[] = [
  { code: 'NEWBORN', slug: 'newborn', label: 'Newborns (0–11 months)' },
  { code: 'TODDLER', slug: 'toddler', label: 'Toddlers (1–3 years)' },
  { code: 'EARLY_SCHOOL', slug: 'early-school', label: 'Early school (4–5 years)' },
  { code: 'ELEMENTARY_SCHOOL', slug: 'elementary-school', label: 'Elementary school (6–11 years)' },
  { code: 'TEEN', slug: 'teen', label: 'Teens (12+ years)' },
]

/** The product's suggested provider traits. */
export const TRAITS: readonly Labelled[] = [
  { code: 'NON_SMOKER', slug: 'non-smoker', label: 'Non-smoker' },
  { code: 'RELIABLE_CAR', slug: 'reliable-car', label: 'Has a reliable car' },
  { code: 'COMFORTABLE_WITH_PETS', slug: 'comfortable-with-pets', label: 'Comfortable with pets' },
  { code: 'PROVIDES_EQUIPMENT', slug: 'provides-equipment', label: 'Provides equipment' },
  { code: 'PROVIDES_SUPPLIES', slug: 'provides-supplies', label: 'Provides supplies' },
]

export const RATING_CATEGORIES = [
  'ACCURATE_CALENDAR',
  'ACTIVITIES',
  'CLEANLINESS',
  'COMMUNICATION',
  'DEPENDABILITY',
  'EXPERTISE',
  'FACILITIES',
  'GOOD_WITH_MULTIPLE_KIDS',
  'GOOD_WITH_MULTIPLE_PETS',
  'KNOWLEDGEABLE',
  'OVERALL',
  'PROFESSIONALISM',
  'PUNCTUALITY',
  'QUALITY_OF_CARE',
  'QUALITY_OF_LESSON',
  'REHIRE',
  'RELIABLE_TRANSPORTATION',
  'RESPONSIVENESS',
  'SKILL_SET',
] as const
export type RatingCategory = (typeof RATING_CATEGORIES)[number]

export const CERTIFICATIONS = [
  'CERTIFIED_NURSING_ASSISTANT',
  'CERTIFIED_REGISTERED_NURSE',
  'CERTIFIED_TEACHER',
  'CHILD_DEVELOPMENT_ASSOCIATE_CDA',
  'CPR_TRAINING',
  'CRN',
  'DOULA',
  'EARLY_CHILDHOOD_EDUCATION_ECE',
  'EARLY_CHILD_DEVELOPMENT_COURSEWORK',
  'FIRST_AID_TRAINING',
  'NAFCC_CERTIFIED',
  'SPECIAL_NEEDS_CARE',
  'TRUSTLINE_CERTIFIED_CALIFORNIA',
] as const
export type Certification = (typeof CERTIFICATIONS)[number]

/** The product names about 80 languages "from AFRIKAANS to ZULU"; these are the ones the
 * catalog uses. Labels live in labels.ts. */
export const LANGUAGES = [
  'AFRIKAANS',
  'AMERICAN_SIGN_LANGUAGE',
  'ARABIC',
  'BRITISH_SIGN_LANGUAGE',
  'CANTONESE',
  'DUTCH',
  'ENGLISH',
  'FRENCH',
  'GERMAN',
  'GREEK',
  'HAITIAN_CREOLE',
  'HEBREW',
  'HINDI',
  'ITALIAN',
  'JAPANESE',
  'KOREAN',
  'MANDARIN',
  'POLISH',
  'PORTUGUESE',
  'PORTUGUESE_BRAZIL',
  'RUSSIAN',
  'SPANISH',
  'TAGALOG',
  'UKRAINIAN',
  'URDU',
  'VIETNAMESE',
  'ZULU',
] as const
export type Language = (typeof LANGUAGES)[number]

export const BUYING_INTENTS = [
  { label: 'Right Now', value: 'rightNow' },
  { label: 'Within a week', value: 'withInWeek' },
  { label: 'In 1-2 months', value: 'withInMonth' },
  { label: 'Just browsing', value: 'justBrowsing' },
] as const
