/** Field limits and patterns shared by server validation and client forms (docs/compatibility.md#shapes). */
export const USER_NAME_MIN = 3
export const USER_NAME_MAX = 15
export const USER_NAME_PATTERN = /^[A-Za-z0-9\-._@+]+$/
export const PASSWORD_MIN = 6
export const BIO_MAX = 55
export const ADMIN_BIO_MAX = 50
export const REAL_NAME_MAX = 7
export const STD_NUMBER_MAX = 24
export const CREATE_STD_NUMBER_MAX = 15
/** Not a contract rule: the `users.phone` column holds 64 characters; longer numbers fail the phone rule. */
export const PHONE_MAX = 64
/** Not a contract rule: the `users.email` column holds 256 characters; longer addresses are invalid. */
export const EMAIL_MAX = 256
/** Not a contract rule: a participation's organization is stored in 64 characters. */
export const ORGANIZATION_MAX = 64
export const TEAM_NAME_MAX = 15
export const TEAM_BIO_MAX = 31
export const POST_TITLE_MAX = 50
export const INVITE_CODE_MAX = 32
export const FLAG_TEMPLATE_MAX = 120
/** Not a contract rule: the longest dynamic flag the instance and container rows hold; a template that could expand beyond it is refused. */
export const DYNAMIC_FLAG_MAX = 128
export const FLAG_MAX = 125
export const SUBMIT_FLAG_MAX = 126

/** Upload limits (docs/compatibility.md#group-account, #group-game-write-ups). */
export const IMAGE_MAX_BYTES = 3 * 1024 * 1024
export const WRITEUP_MAX_BYTES = 20 * 1024 * 1024
export const REQUEST_BODY_MAX_BYTES = 30_000_000
export const AVATAR_WIDTH = 300

/** Room for the multipart envelope (boundaries, part headers, the file name) around an upload's file. */
const MULTIPART_ENVELOPE_BYTES = 64 * 1024

/**
 * Request body limits per kind of route, in bytes (docs/operations.md#request-limits). A route
 * declares one with `bodyLimit`; a larger body is refused with 413 before it is parsed.
 */
export const BODY_LIMITS = Object.freeze({
  /** Every JSON body unless the route names another limit, and routes that take no body. */
  json: 64 * 1024,
  /**
   * Text that is legitimately large: game, challenge, post and notice content, the admin
   * configuration, bulk flags and bulk user import. Parsing and validating this much JSON
   * takes well under 100 ms.
   */
  content: 2 * 1024 * 1024,
  /** Avatar, team avatar and poster uploads: the 3 MiB image limit and its envelope. */
  image: IMAGE_MAX_BYTES + MULTIPART_ENVELOPE_BYTES,
  /** Write-up uploads: the 20 MiB PDF limit and its envelope. */
  writeup: WRITEUP_MAX_BYTES + MULTIPART_ENVELOPE_BYTES,
  /** Admin asset uploads (several files): the contract's request limit. */
  assets: REQUEST_BODY_MAX_BYTES,
  /**
   * Game archive imports (docs/archive.md#limits): a Flagwave export, a CTFd export or a ctfcli
   * challenge archive with its attachments. Unpacked size and entry count have their own caps.
   */
  gameArchive: 512 * 1024 * 1024,
})

/** docs/archive.md#limits: what an imported archive may unpack to, and how many entries it may hold. */
export const ARCHIVE_UNPACKED_MAX_BYTES = 2 * 1024 * 1024 * 1024
export const ARCHIVE_ENTRIES_MAX = 20_000
/** The largest JSON or YAML document read from an archive (manifest, CTFd tables, challenge.yml). */
export const ARCHIVE_DOCUMENT_MAX_BYTES = 64 * 1024 * 1024

/** docs/compatibility.md#file-and-image-urls: accepted image types. */
export const IMAGE_MIME_TYPES = ['image/png', 'image/gif', 'image/jpeg', 'image/webp', 'image/bmp', 'image/tiff'] as const

/** Team and game rules (docs/compatibility.md#group-team, #group-game-reading-and-joining). */
export const MAX_CAPTAINED_TEAMS = 3
export const CONTAINER_LIFETIME_MS = 2 * 60 * 60 * 1000
export const CONTAINER_PROLONG_WINDOW_MS = 10 * 60 * 1000
export const CONTAINER_COOLDOWN_MS = 10 * 1000
export const DEFAULT_BLOOD_BONUS = 52459530

/** docs/compatibility.md#client-constants: client behaviour constants. */
export const REFRESH_INTERVAL_MS = 10_000
/**
 * An opening's board read, when the board shows the new challenge already (its column came with the
 * pushed difference), starts at a random moment within this spread instead of every player's at the
 * notice's instant (docs/realtime.md#openings). The SPA and the simulated event both follow it.
 */
export const OPENING_READ_SPREAD_MS = 3000

/**
 * A cookie readable by the client, set beside the HttpOnly session cookie with the same lifetime and
 * cleared with it: it only says "a session cookie was handed out", never authenticates. The client
 * skips GET /api/account/profile at start without it, so an anonymous page load makes no 401 request.
 */
export const SIGNED_IN_COOKIE = 'Flagwave.SignedIn'
