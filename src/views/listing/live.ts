/** What only the browser knows: a navigation under way, the intent being saved. */
export interface Live {
  busy: boolean
  /** Bumped when a navigation did not come from the form itself, so the form shows the new state. */
  formKey: number
  intent:
    | { kind: 'idle' }
    | { kind: 'saving' }
    | { kind: 'saved'; label: string; next: string }
    | { kind: 'failed' }
}

/** The state every island is rendered in on the server, and hydrated in. */
export const IDLE: Live = { busy: false, formKey: 0, intent: { kind: 'idle' } }
