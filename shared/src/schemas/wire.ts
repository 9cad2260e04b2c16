/** The response shapes the realtime event maps (../events.ts) carry. */
export { GameNotice, GameEvent } from './games.js'
export { Submission } from './play.js'
export { LogMessageModel } from './admin.js'
export { ScoreboardModel } from './scoreboard.js'
export { GlobalConfig } from './config.js'
export { TeamInfoModel } from './teams.js'
