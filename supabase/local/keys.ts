import { SignJWT, decodeProtectedHeader, importJWK, jwtVerify, errors as joseErrors, type CryptoKey, type JWK } from 'jose'

/**
 * Fixed development credentials, the same values the Supabase CLI's local stack uses, so that examples and
 * tools written for `supabase start` work unchanged. They are public: `npm run build` refuses to ship them.
 */
export const DEV_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
export const DEV_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'
export const DEV_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU'
/** The new API keys: opaque strings, not JWTs; the publishable one stands for anon, the secret one for service_role. */
export const DEV_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH'
export const DEV_SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz'
/** The ES256 key that signs user tokens (its public half is served at /auth/v1/.well-known/jwks.json). */
export const DEV_SIGNING_KEY: JWK = {
  kty: 'EC',
  crv: 'P-256',
  kid: 'b81269f1-21d8-4f2e-b719-c2240a840d90',
  x: 'IvvX-Rv3LGbww2P5JTc3aqtbHjI_r7XpLYDqcP2g5fw',
  y: 'jy8AXsIZzYa80Pf7BVIGM4x5e4mNWm48h4wkfH70jXw',
  d: 's5BCca12dNKkoVlYV0niSdRY-qQgK66YOSZcYW2kKC0',
}

/** Every form of the local server's public keys, which a production build must not contain. */
export const DEV_API_KEYS = [DEV_ANON_KEY, DEV_SERVICE_ROLE_KEY, DEV_PUBLISHABLE_KEY, DEV_SECRET_KEY] as const

export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const
export type ApiRole = (typeof API_ROLES)[number]

export interface Claims {
  role: ApiRole
  sub?: string
  email?: string
  session_id?: string
  exp?: number
  [claim: string]: unknown
}

/** What verifies a bearer: the legacy shared secret, the signing key (its public half), and the opaque API keys. */
export interface TokenKeys {
  jwtSecret: string
  signingKey: JWK
  publishableKey: string
  secretKey: string
}

export const DEV_TOKEN_KEYS: TokenKeys = {
  jwtSecret: DEV_JWT_SECRET,
  signingKey: DEV_SIGNING_KEY,
  publishableKey: DEV_PUBLISHABLE_KEY,
  secretKey: DEV_SECRET_KEY,
}

export class JwtError extends Error {
  constructor(
    message: string,
    readonly expired = false,
  ) {
    super(message)
  }
}

const secretKey = (secret: string) => new TextEncoder().encode(secret)

/** The public half of a signing key as a JWKS entry, as GoTrue publishes it. */
export function publicJwk(key: JWK): JWK {
  const { kty, crv, x, y, kid } = key
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] }
}

const importedKeys = new WeakMap<JWK, { sign: Promise<CryptoKey | Uint8Array>; verify: Promise<CryptoKey | Uint8Array> }>()

function imported(key: JWK) {
  let pair = importedKeys.get(key)
  if (!pair) {
    pair = { sign: importJWK(key, 'ES256'), verify: importJWK(publicJwk(key), 'ES256') }
    importedKeys.set(key, pair)
  }
  return pair
}

/** One of the project's keys: the publishable or secret key, or the legacy anon or service_role JWT. */
export function isApiKey(key: string, keys: { anonKey: string; serviceRoleKey: string; publishableKey: string; secretKey: string }): boolean {
  return key === keys.publishableKey || key === keys.secretKey || key === keys.anonKey || key === keys.serviceRoleKey
}

/** An opaque API key sent as bearer stands for its role, as Supabase's gateway treats it; undefined for anything else. */
export function apiKeyClaims(token: string, keys: TokenKeys): Claims | undefined {
  const role: ApiRole | undefined = token === keys.publishableKey ? 'anon' : token === keys.secretKey ? 'service_role' : undefined
  if (!role) return undefined
  return { role, iss: 'supabase', exp: Math.floor(Date.now() / 1000) + 3600 }
}

/**
 * Verifies a bearer: the publishable or secret key, a token signed with the signing key (ES256, its kid) or a legacy
 * HS256 token signed with the shared secret. A token whose role is not an API role is refused.
 */
export async function verifyJwt(token: string, keys: TokenKeys = DEV_TOKEN_KEYS): Promise<Claims> {
  const apiKey = apiKeyClaims(token, keys)
  if (apiKey) return apiKey
  try {
    const { alg, kid } = decodeProtectedHeader(token)
    const key = alg === 'ES256' && kid === keys.signingKey.kid ? await imported(keys.signingKey).verify : secretKey(keys.jwtSecret)
    const { payload } = await jwtVerify(token, key, { algorithms: alg === 'ES256' ? ['ES256'] : ['HS256'] })
    if (!API_ROLES.includes(payload.role as ApiRole)) throw new JwtError('JWT role is not an API role')
    return payload as Claims
  } catch (error) {
    if (error instanceof JwtError) throw error
    if (error instanceof joseErrors.JWTExpired) throw new JwtError('JWT expired', true)
    throw new JwtError('invalid JWT')
  }
}

/** A legacy HS256 token signed with the shared secret (what projects signed with before signing keys). */
export async function signJwt(claims: Claims, expiresInSeconds: number, secret = DEV_JWT_SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(secretKey(secret))
}

/** A token signed as GoTrue signs with an asymmetric key: ES256 and the key's kid in the header. */
export async function signAccessToken(claims: Claims, expiresInSeconds: number, key: JWK = DEV_SIGNING_KEY): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: key.kid })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(await imported(key).sign)
}
