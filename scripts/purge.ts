// Purges the edge cache through the worker's own endpoint, and reads the purge audit log.
//
//   npm run purge -- --url /babysitters/atlanta-ga --tag city:atlanta-ga [--origin URL]
//   npm run purge -- --log [--limit 20] [--remote | --persist-to DIR]
//     every request: purged, refused (401, 429, a bad body) or failed, and by whom
//
// The token comes from PURGE_TOKEN in the environment; against `npm start` (the default origin,
// http://localhost:8787) the development token of package.json's start script is used.
import { execFileSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { OPS_PURGE } from '../src/urls/paths'

const DEV_ORIGIN = 'http://localhost:8787'
const DEV_TOKEN = 'dev-purge-token'

const { values } = parseArgs({
  options: {
    url: { type: 'string', multiple: true, default: [] },
    tag: { type: 'string', multiple: true, default: [] },
    origin: { type: 'string', default: DEV_ORIGIN },
    log: { type: 'boolean', default: false },
    limit: { type: 'string', default: '20' },
    remote: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
  },
})

if (values.log) showLog()
else await purge()

async function purge(): Promise<void> {
  if (values.url.length + values.tag.length === 0) {
    console.error('name at least one --url or --tag (or --log to read the audit log)')
    process.exit(1)
  }
  const token = process.env.PURGE_TOKEN ?? (values.origin === DEV_ORIGIN ? DEV_TOKEN : undefined)
  if (!token) {
    console.error(`set PURGE_TOKEN to purge ${values.origin}`)
    process.exit(1)
  }
  const res = await fetch(new URL(OPS_PURGE, values.origin), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ urls: values.url, tags: values.tag }),
  })
  const text = `${res.status} ${await res.text()}`
  if (res.ok) console.log(text)
  else {
    console.error(text)
    process.exit(1)
  }
}

function showLog(): void {
  const limit = Number(values.limit)
  if (!Number.isInteger(limit) || limit < 1) {
    console.error('--limit must be a positive integer')
    process.exit(1)
  }
  const sql = `SELECT at, token_name AS who, outcome, urls, tags, purged, refusals FROM purge_log ORDER BY at DESC LIMIT ${limit}`
  const out = execFileSync(
    'node_modules/.bin/wrangler',
    [
      'd1',
      'execute',
      'DB',
      ...(values.remote ? ['--remote'] : ['--local']),
      ...(values['persist-to'] ? ['--persist-to', values['persist-to']] : []),
      '--json',
      '--command',
      sql,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const [{ results }] = JSON.parse(out) as [{ results: Record<string, string | number>[] }]
  if (!results.length) console.log('no purges yet')
  for (const row of results) {
    console.log(
      // Refusals without a valid token are one row per outcome and minute, with their count.
      Number(row.refusals) > 1
        ? `${row.at}  ${row.who}  ${row.outcome}  ×${row.refusals} in that minute`
        : `${row.at}  ${row.who}  ${row.outcome}  ${row.purged} purged  urls=${row.urls}  tags=${row.tags}`,
    )
  }
}
