import type { Head } from '../../seo/head'
import { Document } from '../document'
import type { MessageFormProps } from './message-form'
import { MessageForm } from './message-form'

/** The message form on a page of its own: what a post with something to correct gets back. */
export function MessagePage(props: { head: Head; profile: string } & MessageFormProps) {
  const { head, profile, ...form } = props
  return (
    <Document head={head}>
      <h1>{`Message ${props.recipient}`}</h1>
      <p>
        <a href={profile}>{`Back to ${props.recipient}'s profile`}</a>
      </p>
      <MessageForm {...form} />
    </Document>
  )
}

/** Where a sent message lands: it says it went, and shows nothing of it. */
export function MessageSentPage(props: { head: Head; recipient: string; profile: string }) {
  return (
    <Document head={props.head}>
      <h1>Message sent</h1>
      <p role="status">{`${props.recipient} will get your message and can reply by email.`}</p>
      <p>
        <a href={props.profile}>{`Back to ${props.recipient}'s profile`}</a>
      </p>
    </Document>
  )
}
