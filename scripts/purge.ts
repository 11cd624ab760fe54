// Purges the edge cache through the worker's own endpoint, and reads the purge audit log.
//
// The token comes from PURGE_TOKEN in the environment; against `npm start` (the default origin)
// the development token of package.json's start script is used.
import { execFileSync } from 'node:child_process'
import { tagProblem } from '../src/cache/tags'
import { ALL_PAGES_TAGS } from '../src/sync/purge-tags'
import { OPS_PURGE } from '../src/urls/paths'
import { fail, originOption, parseCommandLine, runScript, usageError, wholeNumber } from './cli'
import { deployTarget, environmentOption } from './wrangler-config'

const USAGE = `
npm run purge -- [--url PATH]... [--tag KIND:VALUE]... [--all-pages] [--env staging|production | --origin URL]
npm run purge -- --log [--limit 20] [--env staging|production | --persist-to DIR]

Purges pages by URL (every query form and flag variant of it) and by tag (provider:8,
city:atlanta-ga, service:babysitters, ...; --all-pages: every page type's tag, so every stored
page, as after a re-pack's deploy), through POST ${OPS_PURGE} of the local server
(http://localhost:8787), of an environment of wrangler.toml (--env), or of --origin.
--log prints the audit log: every purge request, purged, refused or failed, and by whom.
`
const DEV_ORIGIN = 'http://localhost:8787'
const DEV_TOKEN = 'dev-purge-token'

const { values } = parseCommandLine(USAGE, {
  url: { type: 'string', multiple: true, default: [] },
  tag: { type: 'string', multiple: true, default: [] },
  'all-pages': { type: 'boolean', default: false },
  env: { type: 'string' },
  origin: { type: 'string' },
  log: { type: 'boolean', default: false },
  limit: { type: 'string', default: '20' },
  'persist-to': { type: 'string' },
})
if (values.env && values.origin) usageError('name either --env or --origin, not both')
const environment = values.env ? environmentOption(values.env) : null
const origin = environment
  ? deployTarget(environment).origin
  : originOption('origin', values.origin ?? DEV_ORIGIN)

await runScript(() => (values.log ? showLog() : purge()), origin)

async function purge(): Promise<void> {
  const tags = [...values.tag, ...(values['all-pages'] ? ALL_PAGES_TAGS : [])]
  if (values.url.length + tags.length === 0)
    usageError('name at least one --url or --tag, or --all-pages (or --log to read the audit log)')
  for (const tag of tags) {
    const problem = tagProblem(tag)
    if (problem) usageError(problem)
  }
  const token = process.env.PURGE_TOKEN ?? (origin === DEV_ORIGIN ? DEV_TOKEN : undefined)
  if (!token) fail(`set PURGE_TOKEN to purge ${origin}`)
  const res = await fetch(new URL(OPS_PURGE, origin), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ urls: values.url, tags }),
  })
  const text = await res.text()
  if (!res.ok) fail(`${origin} refused the purge: ${res.status} ${errorOf(text)}`)
  const { by = 'unknown', at = '' } = JSON.parse(text) as { by?: string; at?: string }
  const what = [...values.url.map((u) => `url ${u}`), ...tags.map((t) => `tag ${t}`)]
  console.log(`purged ${what.length}: ${what.join(', ')} (by ${by} at ${at} on ${origin})`)
}

function errorOf(body: string): string {
  try {
    return (JSON.parse(body) as { error?: string }).error ?? body
  } catch {
    return body.slice(0, 200)
  }
}

function showLog(): void {
  const limit = wholeNumber('limit', values.limit, { min: 1, max: 1000 })
  const sql = `SELECT at, token_name AS who, outcome, urls, tags, purged, refusals FROM purge_log ORDER BY at DESC LIMIT ${limit}`
  const where = environment
    ? ['--remote', '--env', environment]
    : ['--local', ...(values['persist-to'] ? ['--persist-to', values['persist-to']] : [])]
  const out = execFileSync(
    'node_modules/.bin/wrangler',
    ['d1', 'execute', 'CONTROL', ...where, '--json', '--command', sql],
    {
      encoding: 'utf8',
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
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
