import { HtmlValidate, StaticConfigLoader } from 'html-validate/browser'
import config from '../../.htmlvalidate.json'

/**
 * The problems html-validate finds in a whole HTML document, one line each ("line:column rule:
 * message"), empty when the document is valid. The rules are the repository's one config,
 * `.htmlvalidate.json` (the WHATWG standard's rules); the browser entry takes it as a static
 * config because workerd has no file system for the Node entry to look one up in.
 */
export async function htmlProblems(html: string): Promise<string[]> {
  const report = await validator().validateString(html, 'page.html')
  return report.results.flatMap((result) =>
    result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`),
  )
}

let kept: HtmlValidate | undefined

function validator(): HtmlValidate {
  kept ??= new HtmlValidate(new StaticConfigLoader(config))
  return kept
}
