/** @flagwave/shared — used by server, client and tests. */
export * from './enums.js'
export * from './limits.js'
export * from './format.js'
export * from './events.js'
export * from './scoring.js'
export * from './flags.js'
export * from './schemas/index.js'
