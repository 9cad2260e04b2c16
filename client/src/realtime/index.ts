/** Realtime layer: see ./hub.ts for the design and ./hooks.ts for the React API. */
export { hubs, restartHubs, useRealtimeStatus, type Hub, type HubStatus, type ResyncInfo } from './hub'
export { useGameRoom, useHubEvent, type GameRoomOptions } from './hooks'
export { startRealtime } from './dispatch'
