// A lint rule: a fragment (src/views/fragment.ts `fragment(name, Component, key)`) is rendered
// apart from the page, outside its context, and kept under its key: a fragment that read a
// context (the request's site, its flags) would get the default and be served to every page
// with the same key. The rule follows the component through the type checker, into every
// component it renders and function it calls, in any file of the project, and reports the
// first hook it finds (`use`, `useContext`, `useSite`, …): React reads context only through one.
import process from 'node:process'
import ts from 'typescript'

const HOOK = /^use([A-Z]|$)/

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'a fragment and what it renders read no context' },
    messages: {
      hook: 'A fragment is rendered apart from the page and cannot read context: {{name}} calls {{hook}} ({{file}}).',
    },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices
    if (!services?.program) return {}
    const checker = services.program.getTypeChecker()
    return {
      CallExpression(node) {
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'fragment') return
        const component = node.arguments[1]
        if (!component) return
        const found = hookIn(checker, services.esTreeNodeToTSNodeMap.get(component))
        if (found) context.report({ node: component, messageId: 'hook', data: found })
      },
    }
  },
}

/** The first hook `start` (a component) or what it renders or calls reaches, if any. */
function hookIn(checker, start) {
  const seen = new Set()
  const queue = [start]
  while (queue.length) {
    for (const declaration of declarationsOf(checker, queue.pop())) {
      if (seen.has(declaration)) continue
      seen.add(declaration)
      const file = declaration.getSourceFile()
      // React's own types and libraries': only the project's code is followed.
      if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue
      const found = visit(declaration, queue)
      if (found) return { ...found, file: file.fileName.replace(`${process.cwd()}/`, '') }
    }
  }
  return null
}

/** A hook called in `node`, queueing the components it renders and the functions it calls. */
function visit(node, queue) {
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
    const name = node.expression.text
    if (HOOK.test(name)) return { hook: name, name: nameOf(node) }
    queue.push(node.expression)
    if (name === 'createElement' && node.arguments[0]) queue.push(node.arguments[0])
  }
  if (
    (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) &&
    !(ts.isIdentifier(node.tagName) && /^[a-z]/.test(node.tagName.text))
  )
    queue.push(node.tagName)
  return ts.forEachChild(node, (child) => visit(child, queue)) ?? null
}

function declarationsOf(checker, node) {
  if (ts.isFunctionLike(node)) return [node]
  let symbol = checker.getSymbolAtLocation(node)
  if (!symbol) return []
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
  return symbol.declarations ?? []
}

/** The function around `node`, by name, for the report. */
function nameOf(node) {
  for (let n = node; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) && n.name) return n.name.getText()
    const fn = ts.isVariableDeclaration(n) && n.initializer
    if (fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return n.name.getText()
  }
  return 'a component'
}

export const fragmentRules = { rules: { 'fragment-reads-no-context': rule } }
