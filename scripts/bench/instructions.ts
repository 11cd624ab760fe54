// Instructions per request: the benchmark worker's workerd run by valgrind's callgrind, which
// counts much the same whatever else the machine runs (a shared machine moves CPU time by
// 10–20 % from one run to the next; these counts, garbage collection aside, by about 1.5 %:
// V8 times some collections by the clock, docs/performance.md). Each path is requested `warmup`
// times (JIT, the isolate's caches), the counters are zeroed, then it is requested `requests`
// times on kept-alive connections and the counts dumped: the total a request, and a dump that
// callgrind_annotate splits by workerd's own functions (C++, Rust and V8's builtins, by name;
// the JIT's code of the worker's JavaScript has none). D1 is answered by a workerd of its own,
// not counted, and so is a miss's Cache API (harness.ts `Caching`), unless `cacheHere`. With
// `tail`, a directory's long tail instead (find-pages.ts `findTail`): every other city's
// directory of its service, each requested once, so every counted request is a city's first
// render in the isolate, as a crawler's is.
import { execFile } from 'node:child_process'
import { chmod, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import { findTail } from './find-pages'
import type { Server } from './harness'
import { CATALOGS, PHONE, serve, serveCache, serveD1 } from './harness'
import { cycling } from './long-tail'

/** The workerd binary Miniflare runs (the `workerd` package's export). */
const WORKERD = (createRequire(import.meta.url)('workerd') as { default: string }).default

const run = promisify(execFile)

export interface Counted {
  path: string
  /** How every counted request was answered: its status and `x-cache`. */
  answer: string
  requests: number
  /** Instructions a request, in thousands. */
  perRequest: number
  /**
   * The main thread's, garbage collection aside, in thousands: what the worker's code asks for
   * (V8 times some collections by the clock, so they move with the machine's load).
   */
  rest: number
  /** The dump, for callgrind_annotate (`--inclusive=yes`, `--tree=calling`). */
  file: string
}

export interface CountOptions {
  /** Served from the cache (else every request renders: a miss). */
  hit: boolean
  /** The segment row serves a page with nothing of its own (bench-worker.ts `floorPage`). */
  floor: boolean
  /** A miss's Cache API answered in the site's own workerd, as before (harness.ts `Caching`). */
  cacheHere: boolean
  warmup: number
  requests: number
  /** Each path's long tail, a page at a time, each once (its first render in the isolate). */
  tail: boolean
}

/** Counts each of `paths` in turn on one workerd run by callgrind. */
export async function countInstructions(
  paths: readonly string[],
  { hit, floor, cacheHere, warmup, requests, tail }: CountOptions,
): Promise<Counted[]> {
  const out = await mkdtemp(join(tmpdir(), 'care-callgrind-'))
  const wrapper = join(out, 'workerd')
  await writeFile(
    wrapper,
    `#!/bin/sh\nexec valgrind --tool=callgrind --callgrind-out-file=${out}/callgrind.%p ` +
      `--dump-instr=no --collect-jumps=no ${WORKERD} "$@"\n`,
  )
  await chmod(wrapper, 0o755)
  const d1 = await serveD1(CATALOGS.default)
  const pages = tail ? await tails(paths, d1, warmup + requests) : paths.map((p) => [p])
  const cache = hit || cacheHere ? null : await serveCache()
  // Miniflare starts the workerd this names: only the site's runs under callgrind.
  process.env.MINIFLARE_WORKERD_PATH = wrapper
  const site = await serve(
    CATALOGS.default,
    hit ? 'cached' : { missing: pages.flat(), cache },
    d1,
    { floor },
  )
  delete process.env.MINIFLARE_WORKERD_PATH
  const [pid] = site.pids
  try {
    const counted: Counted[] = []
    for (const [i, path] of paths.entries()) {
      const these = pages[i] ?? [path]
      await load(site.base, these, 0, warmup)
      await run('callgrind_control', ['--zero', String(pid)])
      const answers = await load(site.base, these, warmup, requests)
      await run('callgrind_control', ['--dump', String(pid)])
      const answer = oneAnswer(path, answers, hit)
      const file = await newestDump(out, pid ?? 0)
      counted.push({
        path: tail ? `${requests} of ${path}'s tail` : path,
        answer,
        requests,
        perRequest: await perRequest(file, requests),
        rest: await restPerRequest(file, requests),
        file,
      })
    }
    return counted
  } finally {
    await site.mf.dispose()
    await d1.mf.dispose()
    await cache?.mf.dispose()
  }
}

/** Each path's long tail, from a site of its own (not counted): at least `needed` pages. */
async function tails(paths: readonly string[], d1: Server, needed: number): Promise<string[][]> {
  const site = await serve(CATALOGS.default, 'cached', d1)
  try {
    const found: string[][] = []
    for (const path of paths) {
      const tail = await findTail(site.base, path)
      if (tail.length < needed)
        throw new Error(
          `bench: ${path}'s tail has ${tail.length} pages, fewer than --warmup and --requests ` +
            `(${needed}): each page is counted once`,
        )
      found.push(tail)
    }
    return found
  } finally {
    await site.mf.dispose()
  }
}

/**
 * `amount` requests of `paths` in turn from `from` on (each once, or one page again and again),
 * one at a time, tallied by status and `x-cache`. One at a time: the worker's deadlines are
 * wall-clock (a D1 read 500 ms, docs/hardening.md), and under callgrind, 50 times slower, a read
 * waiting on another request's render could pass its deadline and answer the retry page
 * instead, a cheaper request counted as a miss.
 */
async function load(
  base: string,
  paths: readonly string[],
  from: number,
  amount: number,
): Promise<Record<string, number>> {
  const answers: Record<string, number> = {}
  await autocannon({
    url: base,
    headers: { 'user-agent': PHONE },
    connections: 1,
    amount,
    timeout: 120,
    requests: [
      {
        ...cycling(paths, from),
        onResponse: (status, _body, _context, headers) => {
          const answer = `${status} ${(headers as Record<string, string | undefined>)['x-cache'] ?? '–'}`
          answers[answer] = (answers[answer] ?? 0) + 1
        },
      },
    ],
  })
  return answers
}

/**
 * A count stands only if every request it divides by was answered alike, as the row says: a hit
 * (`--hit`) or not, and never a server error (the retry page). Returns that answer.
 */
function oneAnswer(path: string, answers: Record<string, number>, hit: boolean): string {
  const [answer, ...others] = Object.keys(answers)
  const [status = '', cache = ''] = answer?.split(' ') ?? []
  if (answer && !others.length && Number(status) < 500 && (cache === 'HIT') === hit) return answer
  throw new Error(
    `bench: ${path} was answered ${JSON.stringify(answers)}, not every time as a ` +
      `${hit ? 'hit' : 'miss'}: no count (a loaded machine can pass the worker's deadlines)`,
  )
}

async function newestDump(dir: string, pid: number): Promise<string> {
  const dumps = (await readdir(dir)).filter((f) => f.startsWith(`callgrind.${pid}.`))
  const last = dumps.sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop())).pop()
  if (!last) throw new Error(`bench: no callgrind dump in ${dir}`)
  return join(dir, last)
}

/** The dump's total a request, in thousands of instructions. */
async function perRequest(file: string, requests: number): Promise<number> {
  const totals = /^summary:\s+(\d+)/m.exec(await readFile(file, 'utf8'))
  return Number(totals?.[1] ?? 0) / requests / 1000
}

/** `rest` of the dump: the main thread's inclusive count less the collector's, a request. */
async function restPerRequest(file: string, requests: number): Promise<number> {
  const { stdout } = await run('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    maxBuffer: 256 * 1024 * 1024,
  })
  const inclusive = (name: string) => {
    const line = stdout.split('\n').find((l) => l.includes(name))
    return Number(/^\s*([\d,]+)/.exec(line ?? '')?.[1]?.replaceAll(',', '') ?? 0)
  }
  const main = inclusive('???:(below main)')
  return (main - inclusive('Heap::CollectGarbage')) / requests / 1000
}
