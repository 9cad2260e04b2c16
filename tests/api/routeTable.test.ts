/**
 * The route table against docs/compatibility.md#routes-by-group: every endpoint of the contract is served with the
 * contract's method, path and minimum role, and no route exists that the contract (or the
 * documented Flagwave additions) does not list — a new route without a row here fails.
 */
import { describe, expect, it } from 'vitest'
import { allRoutes } from '../../server/src/routes/index.js'
import { CONTRACT_ENDPOINTS, FLAGWAVE_ENDPOINTS, NEWER_ENDPOINTS } from '../support/contract.js'

const normalize = (method: string, path: string) => `${method} ${path.toLowerCase().replace(/\{[^}]+\}|:\w+/g, '{}')}`
const routeKeys = new Map(allRoutes.map((r) => [normalize(r.method, r.path), r]))

describe('route table', () => {
  it.each([...CONTRACT_ENDPOINTS, ...FLAGWAVE_ENDPOINTS].map((e) => [`#${e.n} ${e.method} ${e.path}`, e] as const))('%s is served with the contract role', (_, endpoint) => {
    const route = routeKeys.get(normalize(endpoint.method, endpoint.path))
    expect(route, 'route missing').toBeDefined()
    expect(route!.role ?? 'anon').toBe(endpoint.caller)
    if (endpoint.rateLimit) expect(route!.rateLimit).toBe(endpoint.rateLimit)
  })

  it.each(NEWER_ENDPOINTS.map((e) => [`#${e.n} ${e.method} ${e.path} (GZ::CTF ${e.since})`, e] as const))('%s is served beside v0.17.6', (_, endpoint) => {
    const route = routeKeys.get(normalize(endpoint.method, endpoint.path))
    expect(route, 'route missing').toBeDefined()
    expect(route!.role ?? 'anon').toBe(endpoint.caller)
    if (endpoint.rateLimit) expect(route!.rateLimit).toBe(endpoint.rateLimit)
  })

  it.each(FLAGWAVE_ENDPOINTS.map((e) => [`#${e.n} ${e.method} ${e.path}`, e] as const))('Flagwave addition %s is served with its documented role', (_, endpoint) => {
    const route = routeKeys.get(normalize(endpoint.method, endpoint.path))
    expect(route, 'route missing').toBeDefined()
    expect(route!.role ?? 'anon').toBe(endpoint.caller)
    expect(route!.rateLimit ?? null).toBe(endpoint.rateLimit)
  })

  it('serves nothing outside the contract, its newer rows and the documented additions', () => {
    const contract = new Set([...CONTRACT_ENDPOINTS, ...NEWER_ENDPOINTS, ...FLAGWAVE_ENDPOINTS].map((e) => normalize(e.method, e.path)))
    const extra = [...routeKeys.keys()].filter((k) => !contract.has(k))
    expect(extra).toEqual([])
  })
})
