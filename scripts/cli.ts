// What every ops script shares: `--help`, one clear line for a bad argument or a failure (never a
// stack trace), validated numbers, and the server a script talks to named when it cannot be reached.
import type { ParseArgsConfig } from 'node:util'
import { parseArgs } from 'node:util'

type Options = NonNullable<ParseArgsConfig['options']>

/** Exit codes: 1 when the work failed, 2 when the command line was wrong. */
const FAILED = 1
const USAGE = 2

/**
 * Parses the command line against `options`. `--help` prints `usage` and exits 0; an unknown
 * option or a missing value prints one line and exits 2.
 */
export function parseCommandLine<const O extends Options>(
  usage: string,
  options: O,
  { positionals = false }: { positionals?: boolean } = {},
) {
  const config = {
    options: { ...options, help: { type: 'boolean', short: 'h', default: false } } as O & {
      help: { type: 'boolean'; short: 'h'; default: false }
    },
    allowPositionals: positionals,
    strict: true as const,
  }
  let parsed: ReturnType<typeof parseArgs<typeof config>>
  try {
    parsed = parseArgs(config)
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error))
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage.trim())
    process.exit(0)
  }
  return parsed
}

/** A wrong command line: one line, a pointer to `--help`, exit 2. */
export function usageError(message: string): never {
  console.error(`${message.split('\n')[0]} (--help for usage)`)
  process.exit(USAGE)
}

/** Work that could not be done: one line, exit 1. */
export function fail(message: string): never {
  console.error(message)
  process.exit(FAILED)
}

/** A whole number option within bounds, or a usage error naming the option. */
export function wholeNumber(
  name: string,
  text: string,
  { min = 0, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {},
): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `${min} to ${max}`
    usageError(`--${name} takes a whole number, ${range}: got "${text}"`)
  }
  return value
}

/** An http(s) origin option, or a usage error. */
export function originOption(name: string, text: string): string {
  try {
    const url = new URL(text)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin
  } catch {
    // reported below
  }
  return usageError(
    `--${name} takes an http(s) origin such as http://localhost:8787: got "${text}"`,
  )
}

/**
 * Runs a script's work: any failure becomes one line on stderr and exit 1. A server that does
 * not answer is named (`server`), with how to start the local one.
 */
export async function runScript(work: () => Promise<void> | void, server?: string): Promise<void> {
  try {
    await work()
  } catch (error) {
    fail(describeFailure(error, server))
  }
}

/** One line for a failure: an unreachable server by its address, anything else by its message. */
export function describeFailure(error: unknown, server = 'the server'): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined
  const code = typeof cause?.code === 'string' ? cause.code : ''
  if (['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'EHOSTUNREACH', 'ETIMEDOUT'].includes(code)) {
    return `cannot reach ${server} (${code}); for the local server, run \`npm start\` first`
  }
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}
