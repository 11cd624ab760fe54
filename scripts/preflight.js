// Stops a script that would run on a Node older than package.json's `engines` allow, with one
// line instead of a stack trace from deep inside a tool. `npm install` puts the project's Node in
// node_modules/.bin and npm scripts put that first on PATH, so this fires when that Node is
// missing (node_modules installed before it, a platform it is not published for) or when a tool
// is started directly on an older Node. Plain JavaScript, so that any Node can run it.
import { readFileSync } from 'node:fs'
import process from 'node:process'
import { URL } from 'node:url'

const range = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines
  .node
const [major, minor] = /^>=(\d+)\.(\d+)$/.exec(range).slice(1).map(Number)
const [runMajor, runMinor] = process.versions.node.split('.').map(Number)
if (runMajor < major || (runMajor === major && runMinor < minor)) {
  process.stderr.write(
    `Node ${process.version} (${process.execPath}) is not supported: this project needs Node ${range}; run \`npm install\`, which puts Node 24 in node_modules/.bin for npm scripts\n`,
  )
  process.exit(1)
}
