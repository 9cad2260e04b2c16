/** Every entity, registered with MikroORM in one place. */
import { UserSchema } from './User.js'
import { SessionSchema } from './Session.js'
import { ApiTokenSchema } from './ApiToken.js'
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
import { WebhookSchema } from './Webhook.js'
import { WebhookDeliverySchema } from './WebhookDelivery.js'
import { SsoProviderSchema } from './SsoProvider.js'
import { UserIdentitySchema } from './UserIdentity.js'
import { SsoLoginSchema } from './SsoLogin.js'
import { DivisionSchema } from './Division.js'
import { ScoreEditSchema } from './ScoreEdit.js'
import { RevealSchema } from './Reveal.js'

export const entities = [
  UserSchema,
  SessionSchema,
  ApiTokenSchema,
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
  WebhookSchema,
  WebhookDeliverySchema,
  SsoProviderSchema,
  UserIdentitySchema,
  SsoLoginSchema,
  DivisionSchema,
  ScoreEditSchema,
  RevealSchema,
]
