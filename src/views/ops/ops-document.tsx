import type { ReactNode } from 'react'
import { assets } from '../assets'
import type { OpsNav } from './ops-types'

/**
 * The console's styles: inline with the response's nonce, as its policy allows no other style
 * (the console works by forms that post and redirect; its script only adds islands).
 */
const STYLES = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fafafa}
header{background:#17324d;color:#fff;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
header a{color:#fff}header nav{display:flex;gap:1rem}header p{margin:0 0 0 auto}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}
form{background:#fff;border:1px solid #ccc;border-radius:4px;padding:1rem;margin:1rem 0}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
input,select,textarea{font:inherit;padding:.4rem;border:1px solid #555;border-radius:3px;max-width:100%}
input[type=text],input[type=search]{width:30rem}
button{font:inherit;padding:.5rem 1rem;background:#17324d;color:#fff;border:0;border-radius:3px;cursor:pointer;margin-top:.75rem}
.error{color:#a30000;font-weight:600;margin:.25rem 0}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border:1px solid #ccc;padding:.4rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
code{overflow-wrap:anywhere}
.notice{background:#e6f2e6;border:1px solid #3a7d3a;padding:.75rem;border-radius:4px}
.diff .added{background:#dff0df}.diff .removed{background:#f8dede}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
fieldset{border:1px solid #ccc;margin:.5rem 0}fieldset label{font-weight:400}
form.inline{border:0;padding:0;margin:0;background:none}form.inline button{margin:0}
caption{text-align:left;font-weight:600;padding:.25rem 0}
.warning{background:#fff4e0;border:1px solid #a86200;padding:.75rem;border-radius:4px}
.live{min-height:1.5rem}
`

/**
 * The console's whole document: its own, apart from the site's (no site script, no site CSS).
 * Every page loads the console's one script, cached for good under its hashed name: it finds
 * the page's islands, if any (src/client/ops.tsx).
 */
export function OpsDocument({
  title,
  nonce,
  nav,
  children,
}: {
  title: string
  nonce: string
  nav: OpsNav
  children: ReactNode
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${title} · Ops console`}</title>
        <link rel="icon" href={assets['favicon.svg']} type="image/svg+xml" />
        <style nonce={nonce}>{STYLES}</style>
      </head>
      <body>
        <header>
          <strong>Ops console</strong>
          <nav aria-label="Console">
            <a href={nav.home}>Purge</a>
            <a href={nav.purges}>Recent purges</a>
            <a href={nav.flags}>Flags</a>
            <a href={nav.health}>Catalog health</a>
          </nav>
          <p>{`${nav.email} (${nav.role})`}</p>
        </header>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
        <script type="module" src={assets['ops.js']} nonce={nonce} />
      </body>
    </html>
  )
}
