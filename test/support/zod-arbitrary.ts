import fc from 'fast-check'
import type { z } from 'zod'

// Arbitraries derived from zod schemas (zod 4), for property tests of the catalog's contract:
// the shape, the enums, the bounds and the lengths come from the schema itself, so a change to
// the contract changes what the tests generate. No maintained library derives from zod 4
// (zod-fast-check takes zod 3 and fast-check 3). What the schema checks in code (a listing's codes
// of its service, a reference to a city) a test gives as `overrides`, by field path; its own
// refinements hold because the derived value is checked with the schema (`validOf`).

type Overrides = Readonly<Record<string, fc.Arbitrary<unknown>>>

/** What zod 4 keeps of a schema: its definition, its checks among it. */
interface Internals {
  def: {
    type: string
    shape?: Record<string, z.ZodType>
    innerType?: z.ZodType
    element?: z.ZodType
    entries?: Record<string, string>
    values?: unknown[]
    keyType?: z.ZodType
    valueType?: z.ZodType
    options?: z.ZodType[]
    format?: string
    checks?: { _zod: { def: Check } }[]
  }
}
/** A schema's bounds, its length and its format, as its checks state them. */
interface Bag {
  minimum?: number
  maximum?: number
  format?: string
  maxLength?: number
}
const internals = (schema: z.ZodType) => (schema as unknown as { _zod: Internals })._zod

/** An arbitrary of `schema`'s values; `text` makes its strings, `overrides` replace fields. */
export function arbitraryOf(
  schema: z.ZodType,
  options: { overrides?: Overrides; text: (max: number) => fc.Arbitrary<string> },
  path = '',
): fc.Arbitrary<unknown> {
  const override = options.overrides?.[path]
  if (override) return override
  const { def } = internals(schema)
  const bag = bagOf(def)
  const child = (s: z.ZodType, key: string) =>
    arbitraryOf(s, options, path ? `${path}.${key}` : key)
  switch (def.type) {
    case 'object':
      return fc.record(
        Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, s]) => [k, child(s, k)])),
      )
    case 'nullable':
      return fc.option(arbitraryOf(def.innerType as z.ZodType, options, path), { nil: null })
    case 'literal':
      return fc.constantFrom(...(def.values ?? []))
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}))
    case 'boolean':
      return fc.boolean()
    case 'array':
      // Coded lists name a code once.
      return fc.uniqueArray(child(def.element as z.ZodType, '*'), { maxLength: 4 })
    case 'record':
      return partialRecord(def.keyType as z.ZodType, child(def.valueType as z.ZodType, '*'))
    case 'number':
      return numberOf(bag)
    case 'string':
      return stringOf(bag, options.text)
    default:
      throw new Error(`${path || '(root)'}: no arbitrary for a zod ${def.type}`)
  }
}

function partialRecord(keyType: z.ZodType, value: fc.Arbitrary<unknown>) {
  const keys = Object.values(internals(keyType).def.entries ?? {})
  return fc
    .subarray(keys, { maxLength: 4 })
    .chain((chosen) => fc.tuple(...chosen.map(() => value)).map((vs) => zip(chosen, vs)))
}
const zip = (keys: string[], values: unknown[]) =>
  Object.fromEntries(keys.map((k, i) => [k, values[i]]))

interface Check {
  check: string
  value?: number
  minimum?: number
  maximum?: number
}

function bagOf(def: Internals['def']): Bag {
  const bag: Bag = { format: def.format }
  for (const { _zod } of def.checks ?? []) {
    const c = _zod.def
    if (c.check === 'greater_than') bag.minimum = c.value
    if (c.check === 'less_than') bag.maximum = c.value
    if (c.check === 'max_length') bag.maxLength = c.maximum
  }
  return bag
}

function numberOf({ minimum = -1e9, maximum = 1e9, format }: Bag) {
  if (format === 'safeint' || format === 'int32')
    return fc.oneof(
      fc.bigInt({ min: BigInt(minimum), max: BigInt(maximum) }).map(Number),
      fc.constantFrom(minimum, maximum),
    )
  return fc.double({ min: minimum, max: maximum, noNaN: true, noDefaultInfinity: true })
}

const DAY_MS = 86_400_000
const instant = fc
  .integer({ min: -400, max: 400 })
  .map((days) => new Date(Date.UTC(2026, 10, 1) + days * DAY_MS).toISOString())

function stringOf(bag: Bag, text: (max: number) => fc.Arbitrary<string>) {
  if (bag.format === 'datetime') return instant
  if (bag.format === 'date') return instant.map((s) => s.slice(0, 10))
  if (bag.format === 'url') return fc.constant('https://images.care.example/p/1.jpg')
  return text(bag.maxLength ?? 200)
}

/** `arbitrary`'s values that `schema` takes: its refinements across fields hold. */
export function validOf<T>(schema: z.ZodType<T>, arbitrary: fc.Arbitrary<unknown>) {
  return arbitrary.filter((value) => schema.safeParse(value).success) as fc.Arbitrary<T>
}
