import type { Certification, Labelled, Language, RatingCategory } from './enums'

// Labels for the product's codes that pages show. People read labels, never codes.

export const LANGUAGE_LABELS: Readonly<Record<Language, string>> = {
  AFRIKAANS: 'Afrikaans',
  AMERICAN_SIGN_LANGUAGE: 'American Sign Language',
  ARABIC: 'Arabic',
  BRITISH_SIGN_LANGUAGE: 'British Sign Language',
  CANTONESE: 'Cantonese',
  DUTCH: 'Dutch',
  ENGLISH: 'English',
  FRENCH: 'French',
  GERMAN: 'German',
  GREEK: 'Greek',
  HAITIAN_CREOLE: 'Haitian Creole',
  HEBREW: 'Hebrew',
  HINDI: 'Hindi',
  ITALIAN: 'Italian',
  JAPANESE: 'Japanese',
  KOREAN: 'Korean',
  MANDARIN: 'Mandarin',
  POLISH: 'Polish',
  PORTUGUESE: 'Portuguese',
  PORTUGUESE_BRAZIL: 'Portuguese (Brazil)',
  RUSSIAN: 'Russian',
  SPANISH: 'Spanish',
  TAGALOG: 'Tagalog',
  UKRAINIAN: 'Ukrainian',
  URDU: 'Urdu',
  VIETNAMESE: 'Vietnamese',
  ZULU: 'Zulu',
}

export const CERTIFICATION_LABELS: Readonly<Record<Certification, string>> = {
  CERTIFIED_NURSING_ASSISTANT: 'Certified nursing assistant (CNA)',
  CERTIFIED_REGISTERED_NURSE: 'Registered nurse (RN)',
  CERTIFIED_TEACHER: 'Certified teacher',
  CHILD_DEVELOPMENT_ASSOCIATE_CDA: 'Child Development Associate (CDA)',
  CPR_TRAINING: 'CPR training',
  CRN: 'Certified rehabilitation nurse (CRN)',
  DOULA: 'Doula',
  EARLY_CHILDHOOD_EDUCATION_ECE: 'Early childhood education (ECE)',
  EARLY_CHILD_DEVELOPMENT_COURSEWORK: 'Early child development coursework',
  FIRST_AID_TRAINING: 'First aid training',
  NAFCC_CERTIFIED: 'NAFCC accredited',
  SPECIAL_NEEDS_CARE: 'Special needs care training',
  TRUSTLINE_CERTIFIED_CALIFORNIA: 'TrustLine registered (California)',
}

export const RATING_CATEGORY_LABELS: Readonly<Record<RatingCategory, string>> = {
  ACCURATE_CALENDAR: 'Accurate calendar',
  ACTIVITIES: 'Activities',
  CLEANLINESS: 'Cleanliness',
  COMMUNICATION: 'Communication',
  DEPENDABILITY: 'Dependability',
  EXPERTISE: 'Expertise',
  FACILITIES: 'Facilities',
  GOOD_WITH_MULTIPLE_KIDS: 'Good with multiple kids',
  GOOD_WITH_MULTIPLE_PETS: 'Good with multiple pets',
  KNOWLEDGEABLE: 'Knowledgeable',
  OVERALL: 'Overall',
  PROFESSIONALISM: 'Professionalism',
  PUNCTUALITY: 'Punctuality',
  QUALITY_OF_CARE: 'Quality of care',
  QUALITY_OF_LESSON: 'Quality of lessons',
  REHIRE: 'Would hire again',
  RELIABLE_TRANSPORTATION: 'Reliable transportation',
  RESPONSIVENESS: 'Responsiveness',
  SKILL_SET: 'Skill set',
}

/** The label of a code in `labels`, or the code made readable if a new code arrives first. */
export function labelOf<K extends string>(
  labels: Readonly<Record<K, string>>,
  code: string,
): string {
  return (labels as Readonly<Record<string, string>>)[code] ?? code.toLowerCase().replace(/_/g, ' ')
}

/** The labels of the members of `list` set in `mask`. */
export function labelsOf(mask: number, list: readonly Labelled[]): string[] {
  return list.filter((_, i) => mask & (2 ** i)).map((item) => item.label)
}
