/** Where an API token travels (docs/architecture.md#api-tokens); checked by domain/accounts/apiTokens.ts `authenticateBearer`. */

/**
 * The token a request or socket presents, or null: `Authorization: Bearer <token>`, else the
 * `access_token` query parameter that browsers' SignalR and WebSocket clients send instead of a
 * header (only where a transport passes it: hub paths and Socket.IO handshakes, so that tokens do
 * not end up in ordinary REST URLs and their logs). docs/architecture.md#api-tokens.
 */
export function bearerOf(authorization: string | undefined, accessToken?: unknown): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
  if (match) return match[1]!
  if (authorization && /^Bearer\b/i.test(authorization)) return ''
  const query = Array.isArray(accessToken) ? accessToken[0] : accessToken
  return typeof query === 'string' ? query : null
}

