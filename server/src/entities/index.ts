/** Every entity, registered with MikroORM in one place. */
export { User, UserSchema } from './User.js'
export { Session, SessionSchema } from './Session.js'
export { ConfigEntry, ConfigEntrySchema } from './ConfigEntry.js'
export { LogEntry, LogEntrySchema } from './LogEntry.js'
export { LocalFile, LocalFileSchema } from './LocalFile.js'
export { Team, TeamSchema } from './Team.js'
export { Post, PostSchema } from './Post.js'
export { Game, GameSchema } from './Game.js'
export { Participation, ParticipationSchema } from './Participation.js'
export { Registration, RegistrationSchema } from './Registration.js'
export { Attachment, AttachmentSchema } from './Attachment.js'
export { Challenge, ChallengeSchema } from './Challenge.js'
export { Flag, FlagSchema } from './Flag.js'
export { Container, ContainerSchema } from './Container.js'
export { GameInstance, GameInstanceSchema } from './GameInstance.js'
export { Submission, SubmissionSchema } from './Submission.js'
export { GameNotice, GameNoticeSchema } from './GameNotice.js'
export { GameEvent, GameEventSchema } from './GameEvent.js'
export { CheatInfo, CheatInfoSchema } from './CheatInfo.js'

import { UserSchema } from './User.js'
import { SessionSchema } from './Session.js'
import { ConfigEntrySchema } from './ConfigEntry.js'
import { LogEntrySchema } from './LogEntry.js'
import { LocalFileSchema } from './LocalFile.js'
import { TeamSchema } from './Team.js'
import { PostSchema } from './Post.js'
import { GameSchema } from './Game.js'
import { ParticipationSchema } from './Participation.js'
import { RegistrationSchema } from './Registration.js'
import { AttachmentSchema } from './Attachment.js'
import { ChallengeSchema } from './Challenge.js'
import { FlagSchema } from './Flag.js'
import { ContainerSchema } from './Container.js'
import { GameInstanceSchema } from './GameInstance.js'
import { SubmissionSchema } from './Submission.js'
import { GameNoticeSchema } from './GameNotice.js'
import { GameEventSchema } from './GameEvent.js'
import { CheatInfoSchema } from './CheatInfo.js'

export const entities = [
  UserSchema,
  SessionSchema,
  ConfigEntrySchema,
  LogEntrySchema,
  LocalFileSchema,
  TeamSchema,
  PostSchema,
  GameSchema,
  ParticipationSchema,
  RegistrationSchema,
  AttachmentSchema,
  ChallengeSchema,
  FlagSchema,
  ContainerSchema,
  GameInstanceSchema,
  SubmissionSchema,
  GameNoticeSchema,
  GameEventSchema,
  CheatInfoSchema,
]
