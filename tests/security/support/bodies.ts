/**
 * Request bodies as a hostile client sends them, which fetch cannot: announced larger than what is
 * sent, or streamed without a Content-Length (chunked), with the answer read while the body is
 * still being written. Also a multipart body built by hand, so that it can be sent either way.
 */
import http from 'node:http'
import { randomBytes } from 'node:crypto'

export interface BodyResponse {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
  /** Body bytes written before the answer arrived (or all of them). */
  written: number
}

export interface SendBodyOptions {
  headers?: Record<string, string>
  body: Buffer
  /**
   * `announce`: send Content-Length of the whole body but only its first KiB, then wait for the
   * answer (a server that reads before refusing never answers). `chunked`: no Content-Length, the
   * body in 64 KiB chunks until the answer arrives. `whole`: Content-Length and the whole body.
   */
  mode: 'announce' | 'chunked' | 'whole'
}

export function sendBody(baseUrl: string, method: string, target: string, options: SendBodyOptions): Promise<BodyResponse> {
  const url = new URL(baseUrl + target)
  const headers: Record<string, string> = { ...options.headers }
  if (options.mode !== 'chunked') headers['content-length'] = String(options.body.length)
  return new Promise((resolve, reject) => {
    let answered = false
    let written = 0
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent: false }, (res) => {
      answered = true
      const chunks: Buffer[] = []
      res.on('data', (d: Buffer) => chunks.push(d))
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), written })
      })
      res.on('error', reject)
    })
    // The server may close the connection while the rest of a refused body is still being sent.
    req.on('error', (err) => {
      if (!answered) reject(err)
    })
    if (options.mode === 'announce') {
      const head = options.body.subarray(0, 1024)
      written = head.length
      req.write(head)
      return
    }
    const chunk = 64 * 1024
    const pump = () => {
      while (!answered && written < options.body.length) {
        const piece = options.body.subarray(written, written + chunk)
        written += piece.length
        if (!req.write(piece)) return void req.once('drain', pump)
      }
      if (!answered) req.end()
    }
    pump()
  })
}

/** A multipart/form-data body with one file part, and its Content-Type. */
export function multipartFile(field: string, fileName: string, data: Buffer, type = 'application/octet-stream'): { body: Buffer; contentType: string } {
  const boundary = `----flagwave${randomBytes(8).toString('hex')}`
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return { body: Buffer.concat([head, data, tail]), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** The size of the multipart envelope `multipartFile` puts around a file of this name and type. */
export const multipartOverhead = (field: string, fileName: string, type = 'application/octet-stream') => multipartFile(field, fileName, Buffer.alloc(0), type).body.length

/** `json` as exactly `size` bytes: the JSON text padded with spaces (JSON allows white space after a value). */
export function paddedJson(json: unknown, size: number): Buffer {
  const text = Buffer.from(JSON.stringify(json))
  if (text.length > size) throw new Error(`the JSON itself has ${text.length} bytes, more than ${size}`)
  return Buffer.concat([text, Buffer.alloc(size - text.length, 0x20)])
}
