import type { RouteSpec } from '../http/route.js'

export const submissionRoutes: RouteSpec[] = []
