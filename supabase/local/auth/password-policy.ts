import type { PasswordPolicy } from './accounts'

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
const DIGITS = '0123456789'

/**
 * Recertif's password policy (ANSSI's advice, as supabase/config.toml sets it for a hosted project: 12 characters,
 * letters and digits), which the backend of `npm start` applies unless AUTH_PASSWORD_MIN_LENGTH or
 * AUTH_PASSWORD_REQUIRED_CHARACTERS (GoTrue's sets, separated by colons; empty for none) say otherwise.
 */
export function passwordPolicyFromEnv(env: Record<string, string | undefined>): Required<PasswordPolicy> {
  const length = env.AUTH_PASSWORD_MIN_LENGTH?.trim()
  if (length && !/^\d+$/.test(length)) throw new Error(`AUTH_PASSWORD_MIN_LENGTH must be a whole number of characters, not "${length}"`)
  const sets = env.AUTH_PASSWORD_REQUIRED_CHARACTERS
  return {
    passwordMinLength: length ? Number(length) : 12,
    passwordRequiredCharacters: sets === undefined ? [LETTERS, DIGITS] : sets.split(':').filter((set) => set !== ''),
  }
}
