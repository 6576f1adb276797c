import { decodeJwt } from 'jose'
import { JwtError, verifyJwt, type Claims, type TokenKeys } from '../keys'

export type TokenCheck = { ok: true; claims: Claims } | { ok: false; reason: string }

/** Verifies a channel's token and words a refusal as Realtime does. */
export async function checkToken(token: string, keys: TokenKeys): Promise<TokenCheck> {
  try {
    const claims = await verifyJwt(token, keys)
    if (typeof claims.exp !== 'number') return { ok: false, reason: 'Fields `role` and `exp` are required in JWT' }
    return { ok: true, claims }
  } catch (error) {
    if (error instanceof JwtError && error.expired) {
      const exp = decodeJwt(token).exp ?? 0
      return { ok: false, reason: `Token has expired ${Math.max(0, Math.floor(Date.now() / 1000) - exp)} seconds ago` }
    }
    if (error instanceof JwtError && error.message === 'JWT role is not an API role') {
      return { ok: false, reason: 'Fields `role` and `exp` are required in JWT' }
    }
    return { ok: false, reason: 'Failed to validate JWT signature' }
  }
}
