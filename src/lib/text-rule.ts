// The one rule for every text the site stores, whichever way it comes in (catalog messages, the
// import, the guest message form), and the last guard where stored text reaches a page
// (docs/sync.md, "The text rule"). Refused: control characters (but a line feed where a field
// keeps line breaks), bidi embeddings, overrides and isolates (they reorder what a reader sees),
// a zero-width joiner or non-joiner outside a word (inside one it shapes a Persian word or joins
// an emoji), and lone surrogates (no character at all; D1 would store U+FFFD for one).

// eslint-disable-next-line no-control-regex -- control characters are what this finds
const SUSPECT = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]|\u200c|\u200d/
/** What a joiner may stand between: letters, marks, digits, emoji and their modifiers. */
const WORD_BEFORE = /[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]$/u
const WORD_AFTER = /^[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Modifier}]/u

/** A character the rule refuses: where it is (from 1, in characters) and what it is. */
export interface TextFault {
  position: number
  /** `U+0007`. */
  codePoint: string
  what:
    | 'a control character'
    | 'a bidi control'
    | 'a zero-width joiner outside a word'
    | 'a lone surrogate'
}

/** How a fault reads after its field's name: `has a control character (U+0007) at character 5`. */
export const describeFault = (f: TextFault) =>
  `has ${f.what} (${f.codePoint}) at character ${f.position}`

const hex = (unit: number) => `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`

/** The first character of `text` the rule refuses, or null; `lineBreaks`: a line feed is fine. */
export function textFault(text: string, { lineBreaks = false } = {}): TextFault | null {
  if (!SUSPECT.test(text)) return null
  let position = 0
  for (let i = 0; i < text.length; i++) {
    position++
    const unit = text.charCodeAt(i)
    const what = faultAt(text, i, unit, lineBreaks)
    if (what === 'pair') i++
    else if (what) return { position, codePoint: hex(unit), what }
  }
  return null
}

function faultAt(
  text: string,
  i: number,
  unit: number,
  lineBreaks: boolean,
): TextFault['what'] | 'pair' | null {
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const next = text.charCodeAt(i + 1)
    return next >= 0xdc00 && next <= 0xdfff ? 'pair' : 'a lone surrogate'
  }
  if (unit >= 0xdc00 && unit <= 0xdfff) return 'a lone surrogate'
  if (unit <= 0x1f || (unit >= 0x7f && unit <= 0x9f))
    return unit === 0x0a && lineBreaks ? null : 'a control character'
  if ((unit >= 0x202a && unit <= 0x202e) || (unit >= 0x2066 && unit <= 0x2069))
    return 'a bidi control'
  if (unit === 0x200c || unit === 0x200d) {
    const inWord =
      WORD_BEFORE.test(text.slice(Math.max(0, i - 2), i)) &&
      WORD_AFTER.test(text.slice(i + 1, i + 3))
    return inWord ? null : 'a zero-width joiner outside a word'
  }
  return null
}

/**
 * `text` as a page may show it: what the rule refuses taken out (a lone surrogate becomes U+FFFD),
 * line feeds and tabs kept (white space in HTML). For text stored before the rule existed, or by
 * a way around it: the same text when it has nothing to take out, at the cost of one test.
 */
export function shownText(text: string): string {
  if (!SUSPECT.test(text)) return text
  let shown = ''
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    const what = unit === 0x09 ? null : faultAt(text, i, unit, true)
    if (what === 'pair') shown += text.slice(i, ++i + 1)
    else if (what === 'a lone surrogate') shown += '\ufffd'
    else if (!what) shown += text[i] ?? ''
  }
  return shown
}
