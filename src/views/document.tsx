import type { ReactNode } from 'react'
import { useContext } from 'react'
import { assets } from './assets'
import pkg from '../../package.json'
import { shownServices } from '../flags/visibility'
import type { Head } from '../seo/head'
import { metaDescription, SITE_NAME } from '../seo/head'
import { scriptJson } from '../seo/json-ld'
import type { ClientConfig } from './client-config'
import type { Fragments } from './fragments'
import { fragment } from './fragment'
import { Markup, MARKUP_KEY, Placed } from './markup'
import { CLIENT_CONFIG_ID } from './client-config'
import type { Site } from './site-context'
import { useSite } from './site-context'
import { HOME } from '../urls/paths'

const NAV = [
  'child-care',
  'babysitters',
  'nannies',
  'senior-care',
  'tutors',
  'pet-care',
  'housekeeping',
]

/**
 * The whole document. Everything in <head> is in the first streamed chunk (views/render-html).
 * The inside of <main> is the markup rendered before the page, if any (`mainMarkup`: its marker,
 * text that the stream replaces), then `children`: the sections streamed after it, or all of it.
 * Only pages with islands (`client`) load the browser script; every other page has none.
 * `layout="detail"` (profiles, jobs): on wide screens the page's `.detail-action` (its call to
 * action) stands in a column beside the rest and stays in view (styles.css).
 */
export function Document({
  head,
  client = false,
  layout,
  children,
}: {
  head: Head
  client?: boolean
  layout?: 'detail'
  children?: ReactNode
}) {
  const site = useSite()
  const markup = useContext(Markup)
  const frame = frameOf(site)
  return (
    <html lang="en" className={site.config.greaterCareReskin ? 'theme-greater' : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={metaDescription(head.description)} />
        <meta name="robots" content={head.robots} />
        {head.canonical ? <link rel="canonical" href={head.canonical} /> : null}
        <meta property="og:site_name" content={SITE_NAME} />
        <meta property="og:type" content={head.ogType ?? 'website'} />
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={metaDescription(head.description)} />
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
        {site.config.tagManagerEnabled ? <TagManager site={site} /> : null}
        {client ? <ClientScript site={site} /> : null}
      </head>
      <body>
        <a className="skip" href="#main">
          Skip to content
        </a>
        <Placed tag="header" className="site-header" markupKey={MARKUP_KEY.header}>
          <SiteHeader {...frame} />
        </Placed>
        <main id="main" className={layout ? `wrap ${layout}` : 'wrap'}>
          {markup.get(MARKUP_KEY.main)}
          {children}
        </main>
        <Placed tag="footer" className="site-footer" markupKey={MARKUP_KEY.footer}>
          <SiteFooter {...frame} />
        </Placed>
      </body>
    </html>
  )
}

/** What shapes the site's header and footer: the services shown, the accessibility widget. */
interface Frame {
  services: readonly { slug: string; title: string }[]
  widget: boolean
}

function frameOf(site: Site): Frame {
  return {
    services: shownServices(site.on).map(({ slug, title }) => ({ slug, title })),
    widget: site.config.accessibilityWidgetEnabled,
  }
}

function SiteHeader({ services, widget }: Frame) {
  return (
    <div className="wrap">
      <a className="logo" href={HOME}>
        {SITE_NAME}
      </a>
      <nav className="site-nav" aria-label="Services">
        <ul>
          {services
            .filter((s) => NAV.includes(s.slug))
            .map((s) => (
              <li key={s.slug}>
                <a href={`/${s.slug}`}>{s.title}</a>
              </li>
            ))}
        </ul>
      </nav>
      {widget ? <AccessibilityWidget /> : null}
    </div>
  )
}

function SiteFooter({ services }: Frame) {
  return (
    <div className="wrap">
      <h2>Find care</h2>
      <ul className="links">
        {services.map((s) => (
          <li key={s.slug}>
            <a href={`/${s.slug}`}>{s.title}</a>
          </li>
        ))}
      </ul>
      <p>
        {`${SITE_NAME} connects families with caregivers. Caregivers set their own rates; figures on these pages come from caregivers' profiles.`}
      </p>
    </div>
  )
}

/** The header and footer of this site's pages, rendered once per set of flags that shape them. */
export function frameMarkup(fragments: Fragments, site: Site): [unknown, string][] {
  const frame = frameOf(site)
  const key = JSON.stringify(frame)
  return [
    [MARKUP_KEY.header, fragments.html(HEADER, frame, key)],
    [MARKUP_KEY.footer, fragments.html(FOOTER, frame, key)],
  ]
}

const frameKey = (frame: Frame) => JSON.stringify(frame)
const HEADER = fragment('header', SiteHeader, frameKey)
const FOOTER = fragment('footer', SiteFooter, frameKey)

/**
 * The page's data layer, then Google Tag Manager's loader, in one inline script the page's
 * CSP nonce allows; the loader passes the nonce on to the script it adds.
 */
function TagManager({ site }: { site: Site }) {
  const id = scriptJson(site.config.tagManagerId)
  const code =
    `window.dataLayer=window.dataLayer||[];window.dataLayer.push(${scriptJson(site.dataLayer)});` +
    `(function(w,d,s,l,i){w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});` +
    `var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;` +
    `j.src='https://www.googletagmanager.com/gtm.js?id='+i;var n=d.querySelector('[nonce]');` +
    `n&&j.setAttribute('nonce',n.nonce||n.getAttribute('nonce'));f.parentNode.insertBefore(j,f);` +
    `})(window,document,'script','dataLayer',${id});`
  return <script nonce={site.nonce} dangerouslySetInnerHTML={{ __html: code }} />
}

/**
 * The browser script (a module: it runs once the document is parsed, never blocking the first
 * paint) and its configuration. At low priority, after the stylesheet, as the first paint needs
 * none of it. It fetches React and the islands itself on the visitor's first interaction
 * (src/client/entry.ts): neither is linked here, so neither competes with the page's load.
 */
function ClientScript({ site }: { site: Site }) {
  const config: ClientConfig = {
    dsn: site.browser.dsn,
    release: pkg.version,
    environment: site.browser.environment,
    traceSampleRate: site.config.traceSampleRates.client,
    pageType: site.dataLayer.pageType,
  }
  return (
    <>
      <script
        type="application/json"
        id={CLIENT_CONFIG_ID}
        dangerouslySetInnerHTML={{ __html: scriptJson(config) }}
      />
      <script type="module" src={assets['client.js']} fetchPriority="low" />
    </>
  )
}

/** Text size and contrast for this page, with no JavaScript: checkboxes the stylesheet reads. */
function AccessibilityWidget() {
  return (
    <details className="a11y-widget">
      <summary>Accessibility</summary>
      <label>
        <input type="checkbox" id="a11y-text" /> Larger text
      </label>
      <label>
        <input type="checkbox" id="a11y-contrast" /> High contrast
      </label>
    </details>
  )
}
