import type { ReactNode } from 'react'
import assets from '../../dist/asset-manifest.json'
import { SERVICES } from '../catalog/services'
import type { Head } from '../seo/head'
import { SITE_NAME } from '../seo/head'
import { scriptJson } from '../seo/json-ld'

/** The whole document. Everything in <head> is in the first streamed chunk (views/render-html). */
export function Document({ head, children }: { head: Head; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        <meta name="robots" content={head.robots} />
        {head.canonical ? <link rel="canonical" href={head.canonical} /> : null}
        <meta property="og:site_name" content={SITE_NAME} />
        <meta property="og:type" content={head.ogType ?? 'website'} />
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        {head.canonical ? <meta property="og:url" content={head.canonical} /> : null}
        <meta name="twitter:card" content="summary" />
        <link rel="stylesheet" href={assets['styles.css']} />
        <link rel="icon" href={assets['favicon.svg']} type="image/svg+xml" />
        {head.jsonLd.map((data, i) => (
          <script
            key={i}
            type="application/ld+json"
            dangerouslySetInnerHTML={{ __html: scriptJson(data) }}
          />
        ))}
      </head>
      <body>
        <a className="skip" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="wrap">
            <span className="logo">{SITE_NAME}</span>
            <nav className="site-nav" aria-label="Services">
              <ul>
                {NAV.map((s) => (
                  <li key={s.slug}>
                    <a href={`/${s.slug}`}>{s.title}</a>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </header>
        <main id="main" className="wrap">
          {children}
        </main>
        <footer className="site-footer">
          <div className="wrap">
            <h2>Find care</h2>
            <ul className="links">
              {SERVICES.map((s) => (
                <li key={s.slug}>
                  <a href={`/${s.slug}`}>{s.title}</a>
                </li>
              ))}
            </ul>
            <p>
              {`${SITE_NAME} connects families with caregivers. Caregivers set their own rates; figures on these pages come from caregivers' profiles.`}
            </p>
          </div>
        </footer>
      </body>
    </html>
  )
}

const NAV = SERVICES.filter((s) =>
  [
    'child-care',
    'babysitters',
    'nannies',
    'senior-care',
    'tutors',
    'pet-care',
    'housekeeping',
  ].includes(s.slug),
)
