import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { messageSchema } from '../../src/sync/messages'

describe('docs/sync-schema.json', () => {
  it('is the JSON Schema npm run schema generates from the zod schemas', async () => {
    const generated = z.toJSONSchema(messageSchema, { io: 'input', unrepresentable: 'any' })
    const published: unknown = JSON.parse(await readFile('docs/sync-schema.json', 'utf8'))
    expect(published).toEqual(JSON.parse(JSON.stringify(generated)))
  })
})
