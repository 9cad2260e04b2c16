/**
 * The process environment, parsed once with zod into a frozen object (docs/operations.md#configuration).
 * Every problem is collected and reported together, then the process exits.
 */
import path from 'node:path'
import { z } from 'zod'
import { DEFAULT_TRUSTED_PROXIES, parseTrustedProxies } from './lib/clientAddress.js'
import { parseStorageUrl, type StorageLocation } from './storage/location.js'

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const EnvSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * Where uploaded files and traffic captures live: a directory (default `DATA_DIR`) or an
   * S3-compatible bucket, `s3://ACCESS:SECRET@host:port/bucket?region=…&pathStyle=true`
   * (docs/operations.md#object-storage).
   */
  STORAGE_URL: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      for (const problem of parseStorageUrl(value, '.').problems) ctx.addIssue({ code: 'custom', message: problem })
    }),
  /** Bearer token that opens GET /metrics (docs/operations.md#metrics); unset: only METRICS_ALLOW does. */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Client addresses (IPs and CIDRs, or `loopback`) that may read GET /metrics without the token. */
  METRICS_ALLOW: z
    .string()
    .default('')
    .superRefine((spec, ctx) => {
      for (const problem of parseTrustedProxies(spec).problems) ctx.addIssue({ code: 'custom', message: problem })
    }),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Namespace of every Redis key and channel, so several deployments can share one Redis. */
  REDIS_PREFIX: z.string().regex(/^[\w.-]{1,64}$/).default('flagwave'),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  CONTAINER_PROVIDER: z.enum(['docker', 'kubernetes', 'none']).default('none'),
  DOCKER_HOST: z.string().optional(),
  /** Public address challenge containers are reached at ("host" or "host:port" prefix for published ports). */
  PUBLIC_ENTRY: z.string().optional(),
  /** `default` publishes container ports; `proxy` tunnels them through /api/proxy (docs/compatibility.md#group-proxy). */
  CONTAINER_PORT_MAPPING: z.enum(['default', 'proxy']).default('default'),
  CONTAINER_NETWORK: z.string().optional(),
  KUBERNETES_NAMESPACE: z.string().default('flagwave-challenges'),
  KUBECONFIG: z.string().optional(),
  /** Host address challenge ports are published on (Docker). Keep 127.0.0.1 behind the platform proxy. */
  CONTAINER_BIND_ADDRESS: z.string().default('127.0.0.1'),
  /** Upper bound of every engine call (create, start, inspect, remove, Kubernetes requests). */
  CONTAINER_ENGINE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** Pull a missing image before failing (Docker); the pull has 4× the engine timeout. */
  CONTAINER_PULL_IMAGES: bool.default(true),
  /** Process-count limit of a challenge container. */
  CONTAINER_PIDS_LIMIT: z.coerce.number().int().min(16).max(1_000_000).default(1024),
  /** How often the reaper destroys expired containers and reconciles the engine (GZ::CTF uses 3 min). */
  CONTAINER_REAPER_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
  /** Global switch of proxy traffic capture; a challenge must enable it too (docs/compatibility.md#group-proxy). */
  ENABLE_TRAFFIC_CAPTURE: bool.default(true),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default('Flagwave <noreply@localhost>'),
  XOR_KEY: z.string().default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DISABLE_RATE_LIMIT: bool.default(false),
  /** Trust X-Forwarded-For / X-Forwarded-Proto (docs/compatibility.md#other-global-rules)… */
  TRUST_PROXY: bool.default(false),
  /** …and only from these peers: comma-separated IPs and CIDRs, or `loopback`. */
  TRUSTED_PROXIES: z
    .string()
    .default(DEFAULT_TRUSTED_PROXIES)
    .superRefine((spec, ctx) => {
      for (const problem of parseTrustedProxies(spec).problems) ctx.addIssue({ code: 'custom', message: problem })
    }),
  /**
   * The origin players reach the platform at (`https://ctf.example.org`): links in mails are built
   * from it, never from request headers, and browser requests from it are same-site. Default
   * `http://localhost:$PORT`.
   */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .refine((value) => {
      // Refinements run even after the URL check failed: parse defensively.
      const url = URL.canParse(value) ? new URL(value) : null
      return url !== null && url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === ''
    }, 'an origin only (scheme, host and port), without a path, query or credentials')
    .optional(),
  /** Serve Swagger UI and the OpenAPI document; default on outside production. */
  ENABLE_SWAGGER: bool.optional(),
  CAPTCHA_VERIFY_URL_RECAPTCHA: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  CAPTCHA_VERIFY_URL_TURNSTILE: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  CAPTCHA_PROVIDER: z.enum(['None', 'GoogleRecaptcha', 'CloudflareTurnstile']).default('None'),
  CAPTCHA_SITE_KEY: z.string().default(''),
  CAPTCHA_SECRET_KEY: z.string().default(''),
  CAPTCHA_RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  /** How often expired and void login sessions are deleted (workers/purge.ts). */
  SESSION_PURGE_INTERVAL_MS: z.coerce.number().int().min(200).max(86_400_000).default(3_600_000),
  /**
   * A whole scoreboard (after a rebuild: an opening, an edit, a freeze) larger than this many bytes
   * of JSON is announced to watchers, who read it over REST, instead of pushed to each socket
   * (docs/realtime.md#scoreboard-versions-and-gap-repair). 0 announces every whole board.
   */
  SCOREBOARD_PUSH_MAX_BYTES: z.coerce.number().int().min(0).max(1_073_741_824).default(32 * 1024),
  /** How often a node looks for the next challenge opening time (workers/release.ts; docs/challenge-rules.md#timed-release). */
  CHALLENGE_RELEASE_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** Number of submission-checker workers in this process. */
  CHECKER_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(2),
  /** Webhooks (docs/webhooks.md#configuration): deliveries in flight per node, per-attempt timeout, attempts before giving up. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(0).max(256).default(8),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(12),
  /** First retry delay; doubled per attempt (capped at an hour), with jitter. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  /** How often each node looks for due deliveries and for games that started or ended. */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** Let every webhook reach loopback, private and link-local addresses (docs/webhooks.md#ssrf). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** Chat services' base URLs: a Discord or Slack target must start with its base; Telegram's bot API lives under its base. */
  WEBHOOK_DISCORD_URL: z.url({ protocol: /^https?$/ }).default('https://discord.com/api/webhooks/'),
  WEBHOOK_SLACK_URL: z.url({ protocol: /^https?$/ }).default('https://hooks.slack.com/services/'),
  WEBHOOK_TELEGRAM_URL: z.url({ protocol: /^https?$/ }).default('https://api.telegram.org'),
  /** Build information shown in the footer (docs/compatibility.md#defaults-and-build-information). */
  BUILD_SHA: z.string().default(''),
  BUILD_TAG: z.string().default('v2.0.1'),
  BUILD_TIMESTAMP: z.string().default(''),
})

export type Config = Readonly<
  z.infer<typeof EnvSchema> & {
    dataDir: string
    /** STORAGE_URL, parsed. */
    storage: StorageLocation
    embeddedDatabase: boolean
    enableSwagger: boolean
  }
>

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** Parse an environment (defaults to process.env); throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables mean "unset", as in compose files that pass `VAR=` through.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = EnvSchema.safeParse(cleaned)
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`))
  }
  const value = parsed.data
  const dataDir = path.resolve(value.DATA_DIR)
  return Object.freeze({
    ...value,
    dataDir,
    storage: parseStorageUrl(value.STORAGE_URL, dataDir).location!,
    embeddedDatabase: value.DATABASE_URL === undefined,
    enableSwagger: value.ENABLE_SWAGGER ?? value.NODE_ENV !== 'production',
  })
}

/** Settings that are valid but probably not what the operator meant; logged at boot. */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = []
  if (config.SMTP_URL && !config.PUBLIC_URL) {
    warnings.push(`SMTP_URL is set but PUBLIC_URL is not: links in mails point at http://localhost:${config.PORT}; set PUBLIC_URL to the address players use`)
  }
  return warnings
}
