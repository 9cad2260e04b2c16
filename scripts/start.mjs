#!/usr/bin/env node
/**
 * `npm start`: build the client when it is missing or older than its sources, then run the
 * server (TypeScript through tsx) with the caller's environment (docs/operations.md#configuration).
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dist = path.join(root, 'client', 'dist', 'index.html')

function newestMtime(dir) {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full))
    else newest = Math.max(newest, fs.statSync(full).mtimeMs)
  }
  return newest
}

const sources = [path.join(root, 'client', 'src'), path.join(root, 'shared', 'src')]
const stale = !fs.existsSync(dist) || sources.some((dir) => fs.existsSync(dir) && newestMtime(dir) > fs.statSync(dist).mtimeMs)
if (stale && process.env.SKIP_CLIENT_BUILD !== '1') {
  console.log('Building the web client…')
  const build = spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'src', 'main.ts')], { cwd: root, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
