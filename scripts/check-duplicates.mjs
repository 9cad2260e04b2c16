#!/usr/bin/env node
/**
 * `npm run check:duplicates`: every duplicated block that jscpd finds fails the check, unless
 * the pair of files is in the reviewed list `.jscpd-allow.json` (with its reason). A percentage
 * threshold would let new copies in as long as the code base grows; this does not.
 * Sources are scanned with `.jscpd.json` (50 tokens, 5 lines); tests with a larger minimum
 * (100 tokens), since tests repeat short setup on purpose to stay readable one by one.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { allow } = JSON.parse(fs.readFileSync(path.join(root, '.jscpd-allow.json'), 'utf8'))

const scans = [
  { name: 'sources', args: [] },
  { name: 'tests', args: ['--min-tokens', '100', '--ignore', '**/node_modules/**,**/artifacts/**', 'tests'] },
]

const pairKey = (a, b) => [a, b].sort().join(' <-> ')
const allowed = new Map(allow.map((entry) => [pairKey(entry.files[0], entry.files[1]), { ...entry, used: false }]))

const found = []
for (const scan of scans) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'jscpd-'))
  const run = spawnSync('jscpd', ['--config', '.jscpd.json', '--reporters', 'json', '--output', out, '--silent', '--no-colors', ...scan.args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` },
  })
  const reportFile = path.join(out, 'jscpd-report.json')
  if (run.status !== 0 || !fs.existsSync(reportFile)) {
    console.error(`jscpd (${scan.name}) failed:\n${run.stdout}${run.stderr}`)
    process.exit(2)
  }
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'))
  fs.rmSync(out, { recursive: true, force: true })
  for (const clone of report.duplicates) {
    const first = path.relative(root, clone.firstFile.name)
    const second = path.relative(root, clone.secondFile.name)
    const entry = allowed.get(pairKey(first, second))
    if (entry) {
      entry.used = true
      continue
    }
    found.push(`${first}:${clone.firstFile.start}-${clone.firstFile.end} = ${second}:${clone.secondFile.start}-${clone.secondFile.end} (${clone.lines} lines, ${clone.tokens} tokens)`)
  }
}

const stale = [...allowed.values()].filter((entry) => !entry.used)
for (const line of found) console.log(`duplicate: ${line}`)
for (const entry of stale) console.log(`stale entry in .jscpd-allow.json (no clone left between these files): ${entry.files.join(', ')}`)
if (found.length > 0 || stale.length > 0) {
  console.log(`\n${found.length} duplicated block(s), ${stale.length} stale allowance(s): extract the shared code, or add the pair to .jscpd-allow.json with a reason.`)
  process.exit(1)
}
console.log('no duplicated blocks')
