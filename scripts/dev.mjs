#!/usr/bin/env node
/**
 * `npm run dev`: the server with hot reload (tsx watch, NODE_ENV=development) and the Vite dev
 * server with HMR on http://localhost:5173, proxying API and realtime calls to the server.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const env = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' }
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', path.join(root, 'server', 'src', 'main.ts')], { cwd: root, stdio: 'inherit', env }),
  spawn('npm', ['run', 'dev', '-w', 'client'], { cwd: root, stdio: 'inherit', env }),
]
const stop = (signal) => children.forEach((c) => c.kill(signal))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal))
for (const child of children) child.on('exit', (code) => { stop('SIGTERM'); process.exit(code ?? 0) })
