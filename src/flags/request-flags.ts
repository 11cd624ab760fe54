import type { Config, FlagName, Shaping } from './definitions'
import { CONFIG_DEFAULTS, FLAGS } from './definitions'
import type { Evaluations } from './evaluate'
import { evaluateAll } from './evaluate'

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

/**
 * The flags of a request before its flag set is read: every flag and key at its default. The
 * first step of the pipeline sets these, so a response that fails before the flags step (an
 * error page, the gate's 404) is rendered with them, and the context's `flags` is always set.
 */
export const DEFAULT_FLAGS: Flags = {
  on: (name) => FLAGS[name].default,
  evaluations: evaluateAll({}, { deviceId: '', bot: false }, {}),
  config: CONFIG_DEFAULTS,
  variant: 'defaults',
  stray: () => [],
}
