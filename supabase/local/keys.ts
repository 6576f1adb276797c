import { SignJWT, jwtVerify, errors as joseErrors } from 'jose'

/**
 * Fixed development credentials, the same values the Supabase CLI's local stack uses, so that examples and
 * tools written for `supabase start` work unchanged. They are public: `npm run build` refuses to ship them.
 */
export const DEV_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long'
export const DEV_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'
export const DEV_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU'

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

export class JwtError extends Error {
  constructor(
    message: string,
    readonly expired = false,
  ) {
    super(message)
  }
}

const secretKey = (secret: string) => new TextEncoder().encode(secret)

/** Verifies an HS256 token and returns its claims; a token whose role is not an API role is refused. */
export async function verifyJwt(token: string, secret = DEV_JWT_SECRET): Promise<Claims> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), { algorithms: ['HS256'] })
    if (!API_ROLES.includes(payload.role as ApiRole)) throw new JwtError('JWT role is not an API role')
    return payload as Claims
  } catch (error) {
    if (error instanceof JwtError) throw error
    if (error instanceof joseErrors.JWTExpired) throw new JwtError('JWT expired', true)
    throw new JwtError('invalid JWT')
  }
}

export async function signJwt(claims: Claims, expiresInSeconds: number, secret = DEV_JWT_SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(secretKey(secret))
}
