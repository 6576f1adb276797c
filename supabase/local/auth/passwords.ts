import type { Sql } from '../database'

/** Checks a password against a bcrypt hash. */
export type PasswordVerifier = (password: string, hash: string) => Promise<boolean>

/** bcrypt through pgcrypto's crypt, the function the seed and the generated dataset hash with. */
export function pgcryptoVerifier(sql: Sql): PasswordVerifier {
  return async (password, hash) => {
    const { rows } = await sql.query<{ ok: boolean }>('select extensions.crypt($1, $2) = $2 as ok', [password, hash])
    return rows[0]?.ok === true
  }
}

// A bcrypt hash of a random password nobody kept, at cost 10: GoTrue's (Go's bcrypt.DefaultCost), the seed's and
// the generated dataset's. Refusing an unknown e-mail then costs as much as refusing a wrong password.
export const DUMMY_HASH = '$2a$10$3WpmvGL2aSpOwWOoNoZRe.PQ4TJr.U2yUZ.tfWm57A9Zks7wti2HS'

const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/

/**
 * Whether the password matches the account's stored hash. The verifier runs exactly once whatever the account:
 * on the stored hash when it is bcrypt, else (no account, no password, another algorithm) on DUMMY_HASH, whose
 * answer is ignored, so the time of a refusal does not tell whether the account exists. pgcrypto knows only the
 * $2a$ prefix; $2b$ and $2y$ hashes, from other bcrypt libraries, are the same algorithm and are checked as $2a$.
 */
export async function passwordMatches(verify: PasswordVerifier, stored: string | null | undefined, password: string): Promise<boolean> {
  const usable = stored && BCRYPT.test(stored) ? `$2a$${stored.slice(4)}` : null
  const matches = await verify(password, usable ?? DUMMY_HASH)
  return usable !== null && matches
}
