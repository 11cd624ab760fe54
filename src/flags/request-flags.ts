import type { Config, FlagName, Shaping } from './definitions'
import type { Evaluations } from './evaluate'

/** The flags and configuration a request is served with. */
export interface Flags {
  on: (name: FlagName) => boolean
  evaluations: Evaluations
  config: Config
  /** The variant fingerprint: what a cache keys on (`x-variant`). */
  variant: string
  /**
   * Flags and configuration keys this request read that its variant does not key on. A page
   * with any is not stored: a missing declaration in src/flags/definitions.ts costs a render,
   * never another visitor's variant.
   */
  stray: () => Shaping[]
}
