import { BUYING_INTENTS } from '../../catalog/enums'
import type { On } from '../../flags/visibility'
import { startsAtEnrollment } from '../../flags/visibility'
import { flowPath } from '../../urls/paths'
import type { IntentQuestion } from './listing-state'

/**
 * The buying-intent question a listing at `from` asks, into the flow of its segment; none where
 * adult care goes straight to the new enrollment step (flag adultCareEnrollmentRollout).
 */
export function intentQuestion(
  segment: string,
  question: string,
  on: On,
  from: string,
): IntentQuestion | null {
  if (startsAtEnrollment(segment, on)) return null
  return {
    action: flowPath(segment),
    question,
    choices: BUYING_INTENTS.map((b) => ({ value: b.value, label: b.label })),
    from,
  }
}
