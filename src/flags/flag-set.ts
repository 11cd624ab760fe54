import type { z } from 'zod'
import type { Config, FlagName } from './definitions'
import { CONFIG_DEFAULTS, FLAG_NAMES } from './definitions'
import type { FlagDocument } from './schema'
import { configSchema, documentSchema, flagSchema } from './schema'

/** The flag store as read: the valid flag documents, the configuration, and what was wrong. */
export interface FlagSet {
  flags: Partial<Record<FlagName, FlagDocument>>
  config: Config
  problems: string[]
  /** The document as a whole was unreadable: a reader keeps its last good set instead. */
  malformed?: true
}

export const DEFAULT_FLAG_SET: FlagSet = { flags: {}, config: CONFIG_DEFAULTS, problems: [] }

/**
 * Reads the store's document. Whatever is wrong (a malformed document, an unknown flag or
 * field, a flag in state INVALID, a bad configuration value) falls back to the documented
 * default for that flag or key alone, and is listed in `problems` to be reported once.
 */
export function parseFlagSet(raw: unknown): FlagSet {
  if (raw === null || raw === undefined) return DEFAULT_FLAG_SET
  const doc = documentSchema.safeParse(raw)
  if (!doc.success)
    return {
      ...DEFAULT_FLAG_SET,
      problems: [`malformed flag document: ${brief(doc.error)}`],
      malformed: true,
    }

  const problems: string[] = []
  const flags: Partial<Record<FlagName, FlagDocument>> = {}
  for (const [name, value] of Object.entries(doc.data.flags ?? {})) {
    if (!(FLAG_NAMES as string[]).includes(name)) {
      problems.push(`unknown flag ${name}`)
      continue
    }
    const flag = flagSchema.safeParse(value)
    if (!flag.success) problems.push(`flag ${name}: ${brief(flag.error)}`)
    else if (flag.data.state === 'INVALID') problems.push(`flag ${name} is INVALID`)
    else flags[name as FlagName] = flag.data
  }

  const config: Config = { ...CONFIG_DEFAULTS }
  const rawConfig = doc.data.config
  if (typeof rawConfig === 'object' && rawConfig !== null && !Array.isArray(rawConfig)) {
    for (const [key, value] of Object.entries(rawConfig as Record<string, unknown>)) {
      const one = configSchema.safeParse({ [key]: value })
      if (one.success) Object.assign(config, one.data)
      else problems.push(`config ${key}: ${brief(one.error)}`)
    }
  } else if (rawConfig !== undefined) {
    problems.push('config: not an object')
  }
  return { flags, config, problems }
}

/** A validation error in one line: "rules.0.percentage: Too big: expected number to be <=100". */
function brief(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(document)'}: ${i.message}`).join('; ')
}
