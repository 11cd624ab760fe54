// npm run schema: the JSON Schema of a catalog message (docs/sync.md), generated from the zod
// schemas of src/sync/messages.ts into docs/sync-schema.json. Checks made in code (codes of the
// listing's service, a job service's ages) are described in docs/sync.md, not in the schema.
import { writeFile } from 'node:fs/promises'
import { z } from 'zod'
import { messageSchema } from '../src/sync/messages'

const schema = z.toJSONSchema(messageSchema, { io: 'input', unrepresentable: 'any' })
await writeFile('docs/sync-schema.json', JSON.stringify(schema, null, 2) + '\n')
console.log('wrote docs/sync-schema.json')
