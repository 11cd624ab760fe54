// Another framework serving a comparable page, loaded like the project's rows: Next.js's pages
// router rendering a 20-card listing on every request (getServerSideProps, no data reads), as
// a directory miss does. Installed on demand from the npm registry into a directory of its own
// under the system's temporary directory, never into this project's dependencies, and built
// once with `next build` (production React); `next start` then serves it on 127.0.0.1.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { descendants } from './cpu-time'
import { step } from './harness'
import type { Served } from './measure-route'

/** The major version measured: the comparison was made against it. */
const NEXT = '16'
const DIR = join(tmpdir(), `care-edge-bench-next-${NEXT}`)

/**
 * A directory page of 20 providers: a head, a header, a filter form, the cards (name, photo,
 * rating, rate, distance, a paragraph, a link) and a footer, rendered by React on each request.
 */
const PAGE = String.raw`
import Head from 'next/head'

const NAMES = ['Avery', 'Jordan', 'Riley', 'Morgan', 'Quinn', 'Harper', 'Rowan', 'Emerson']
const LINE = 'Patient, CPR certified and happy to help with homework, meals and bedtime routines. '

export async function getServerSideProps({ query }) {
  const city = typeof query.city === 'string' ? query.city : 'Atlanta, GA'
  const cards = Array.from({ length: 20 }, (_, i) => ({
    id: 1000 + i,
    name: NAMES[i % NAMES.length] + ' ' + String.fromCharCode(65 + i) + '.',
    rate: 15 + (i % 9),
    rating: (4 + (i % 10) / 10).toFixed(1),
    reviews: 3 + i * 2,
    miles: (0.5 + i * 0.7).toFixed(1),
    years: 1 + (i % 12),
    about: LINE.repeat(3 + (i % 3)),
  }))
  return { props: { city, cards } }
}

export default function Directory({ city, cards }) {
  const title = 'Babysitters in ' + city + ': 20 near you'
  return (
    <>
      <Head>
        <title>{title}</title>
        <meta name="description" content={'Compare ' + cards.length + ' babysitters in ' + city + '.'} />
        <link rel="canonical" href="https://www.care.example/babysitters/atlanta-ga" />
      </Head>
      <header className="site-header"><a href="/">Care</a><nav><a href="/babysitters">Babysitters</a> <a href="/nannies">Nannies</a></nav></header>
      <main>
        <h1>{title}</h1>
        <form className="filters" method="get">
          <label>Distance <select name="distance">{[5, 10, 25, 50].map((d) => <option key={d} value={d}>{d} miles</option>)}</select></label>
          <label>Sort <select name="sort"><option>Recommended</option><option>Newest</option></select></label>
          <button type="submit">Apply</button>
        </form>
        <ul className="cards">
          {cards.map((c) => (
            <li key={c.id} className="card">
              <img src={'/photos/' + c.id + '.jpg'} alt={c.name} width="96" height="96" loading="lazy" />
              <h2><a href={'/p/' + c.id}>{c.name}</a></h2>
              <p className="rating">{c.rating} stars, {c.reviews} reviews</p>
              <p className="rate">{'$' + c.rate}/hr · {c.miles} miles away · {c.years} years of experience</p>
              <p className="about">{c.about}</p>
              <a className="button" href={'/p/' + c.id + '#message'}>Message {c.name}</a>
            </li>
          ))}
        </ul>
        <nav className="pagination"><a href="?page=2">Next page</a></nav>
      </main>
      <footer><p>Care marketplace</p></footer>
    </>
  )
}
`

/** Installs (once) and builds (when the page changes) the Next.js app, and starts it. */
export async function serveNext(): Promise<Served & { stop: () => void }> {
  await mkdir(join(DIR, 'pages'), { recursive: true })
  if (!existsSync(join(DIR, 'node_modules', 'next'))) {
    await writeFile(join(DIR, 'package.json'), '{ "private": true }\n')
    await step(`Next.js ${NEXT} into ${DIR} (npm registry, once)`, 'npm', [
      'install',
      '--prefix',
      DIR,
      '--no-audit',
      '--no-fund',
      `next@${NEXT}`,
      'react@19',
      'react-dom@19',
    ])
  }
  const page = join(DIR, 'pages', 'index.js')
  const built = existsSync(join(DIR, '.next', 'BUILD_ID'))
  if (!built || (await readFile(page, 'utf8').catch(() => '')) !== PAGE) {
    await writeFile(page, PAGE)
    await step('Next.js production build', join(DIR, 'node_modules', '.bin', 'next'), [
      'build',
      DIR,
    ])
  }
  const port = await freePort()
  const child = spawn(
    join(DIR, 'node_modules', '.bin', 'next'),
    ['start', DIR, '--hostname', '127.0.0.1', '--port', String(port)],
    {
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: 'ignore',
    },
  )
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    const up = await fetch(base).then(
      (r) => r.body?.cancel().then(() => true),
      () => false,
    )
    if (up) break
    if (i > 300 || child.exitCode !== null) throw new Error('bench: next start did not answer')
    await new Promise((r) => setTimeout(r, 100))
  }
  if (child.pid === undefined) throw new Error('bench: next start has no process')
  const pids = [child.pid, ...(await descendants(child.pid))]
  return { base, pids, stop: () => child.kill() }
}

/** A port nothing listens on now, from the system. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
