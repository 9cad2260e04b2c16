/**
 * The route table: every endpoint of the platform, in the contract's group order.
 * The permission matrix and conformance tests iterate this list.
 */
import type { RouteSpec } from '../http/route.js'
import { infoRoutes } from './info.js'

export const allRoutes: RouteSpec[] = [...infoRoutes]
