// The figures of `npm run bench -- --stream`, printed as docs/performance.md keeps them, with the
// cost per day at D1's published prices (Workers Paid: rows written $1.00 a million past 50
// million a month included, rows read $0.001 a million past 25 billion a month included).
import { markdownTable } from './markdown-table'
import type { StreamFigures } from './stream'
import { DISTANCE } from './stream'
import { percentile } from './sync'

export const D1_PRICE = { writtenPerMillion: 1, readPerMillion: 0.001 }
/** The load the product is sized for: 50 changes a second, all day. */
export const CHANGES_PER_DAY = 50 * 86_400

/** Dollars a day for `changesPerDay` at the rows each change costs (before the monthly allowance). */
export function costPerDay(readPerChange: number, writtenPerChange: number, changesPerDay: number) {
  const read = ((readPerChange * changesPerDay) / 1e6) * D1_PRICE.readPerMillion
  const written = ((writtenPerChange * changesPerDay) / 1e6) * D1_PRICE.writtenPerMillion
  return { read, written, total: read + written }
}

export function reportStream(f: StreamFigures, rate: number): void {
  const shown = f.freshness.filter((t): t is number => t !== null)
  console.log(
    `\nnpm run bench -- --stream${f.catalog === 'large' ? ' --large' : ''} --rate ${rate} --seconds ${f.seconds}: ${new Date().toISOString()}, ` +
      `${f.changes} changes (70 % profile edits, 20 % reviews, 10 % jobs), Node ${process.version}\n`,
  )
  console.log(
    `freshness of ${f.freshness.length} timed profile edits: p50 ${percentile(shown, 50).toFixed(1)} s, ` +
      `p99 ${percentile(shown, 99).toFixed(1)} s, ${f.freshness.length - shown.length} never shown within a minute\n`,
  )
  console.log(
    markdownTable(
      ['aggregate page', 'requests', 'hits', 'hit ratio'],
      Object.entries(f.aggregates).map(([path, { requests, hits }]) => [
        path,
        String(requests),
        String(hits),
        requests ? `${((100 * hits) / requests).toFixed(1)} %` : '-',
      ]),
    ),
  )
  const sessions = Object.entries(f.sessions)
    .map(([session, n]) => `${session} ${n}`)
    .join(', ')
  console.log(
    `\nmisses of those pages by D1 session (Server-Timing d1-session): ${sessions || 'none'}`,
  )
  reportTail(f)
  console.log(
    '\n' +
      markdownTable(
        [
          'kind (100 alone)',
          'rows read / change',
          'rows written / change',
          '$ a day at 50/s of it',
        ],
        Object.entries(f.perKind).map(([kind, r]) => {
          const per = (n: number) => (r.messages ? n / r.messages : 0)
          return [
            kind,
            per(r.read).toFixed(1),
            per(r.written).toFixed(1),
            costPerDay(per(r.read), per(r.written), CHANGES_PER_DAY).total.toFixed(2),
          ]
        }),
      ),
  )
  const read = f.rows.messages ? f.rows.read / f.rows.messages : 0
  const written = f.rows.messages ? f.rows.written / f.rows.messages : 0
  const cost = costPerDay(read, written, CHANGES_PER_DAY)
  console.log(
    `\nD1 rows per change (${f.rows.messages} applied): ${read.toFixed(1)} read, ${written.toFixed(1)} written; ` +
      `at 50 changes/s: $${cost.written.toFixed(2)} a day written + $${cost.read.toFixed(2)} read = $${cost.total.toFixed(2)}` +
      `\npage mix meanwhile: ${f.mix.requests} requests, ${f.mix.rps.toFixed(0)} req/s, p99 ${f.mix.p99.toFixed(0)} ms, ` +
      `${f.mix.errors} errors or non-2xx\n`,
  )
}

/** The long tail's misses: the share that read a replica, and their times to headers. */
function reportTail(f: StreamFigures): void {
  console.log(
    `\nthe long tail walked meanwhile, one page at a time, each a miss (D1: primary ${DISTANCE.primaryMs} ms away, ` +
      `replica ${DISTANCE.replicaMs} ms away lagging ${DISTANCE.replicaLagMs} ms):\n`,
  )
  console.log(
    markdownTable(
      [
        'page kind',
        'misses',
        'replica',
        'bookmark',
        'primary',
        'replica share',
        'TTFB p50',
        'TTFB p95',
      ],
      Object.entries(f.tail).map(([kind, { sessions, ttfb }]) => {
        const n = ttfb.length
        const replica = sessions['first-unconstrained'] ?? 0
        return [
          kind,
          String(n),
          String(replica),
          String(sessions.bookmark ?? 0),
          String(sessions['first-primary'] ?? 0),
          n ? `${((100 * replica) / n).toFixed(1)} %` : '-',
          `${percentile(ttfb, 50).toFixed(0)} ms`,
          `${percentile(ttfb, 95).toFixed(0)} ms`,
        ]
      }),
    ),
  )
}
