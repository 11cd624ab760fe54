import { use } from 'react'

export interface LinkItem {
  href: string
  text: string
  count?: string
}

/** A module of internal links (TOP_CITIES, RELATED_SERVICES, nearby cities). Renders nothing
 * when empty, so a page never shows a heading over no links. */
export function LinkList({ title, items }: { title: string; items: readonly LinkItem[] }) {
  if (items.length === 0) return null
  const id = `links-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul className="links">
        {items.map((item) => (
          <li key={item.href}>
            <a href={item.href}>{item.text}</a>
            {item.count ? <span className="count">{` (${item.count})`}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The same module from data still loading: rendered inside <Suspense>, streamed when ready. */
export function AsyncLinkList({
  title,
  items,
}: {
  title: string
  items: Promise<readonly LinkItem[]>
}) {
  return <LinkList title={title} items={use(items)} />
}
