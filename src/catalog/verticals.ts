// The product's vertical codes with their short forms. The product names a pageSource
// and a serviceIdForMember per vertical without their values; ours are below.

export const VERTICALS = {
  CHILDCARE: { short: 'cc', label: 'Child care', serviceIdForMember: 'childCare' },
  SENIRCARE: { short: 'sc', label: 'Senior care', serviceIdForMember: 'seniorCare' },
  HOUSEKEEP: { short: 'hk', label: 'Housekeeping', serviceIdForMember: 'housekeeping' },
  TUTORINGX: { short: 'tu', label: 'Tutoring', serviceIdForMember: 'tutoring' },
  PETCAREXX: { short: 'pc', label: 'Pet care', serviceIdForMember: 'petCare' },
  CAREGIGSX: { short: 'cg', label: 'Care gigs', serviceIdForMember: 'careGigs' },
  SPCLNEEDS: { short: 'sn', label: 'Special needs', serviceIdForMember: 'specialNeeds' },
  // The product lists these two verticals by these names, with no shorter code of their own.
  AU_PAIR: { short: 'ap', label: 'Au pairs', serviceIdForMember: 'auPair' },
  ERRANDS: { short: 'er', label: 'Errands', serviceIdForMember: 'errands' },
} as const

export type VerticalCode = keyof typeof VERTICALS
