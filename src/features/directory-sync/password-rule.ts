/**
 * The rule a new password follows (ANSSI's advice; the auth server checks it too): 12 characters at least, with
 * letters and digits. Said under the field before typing, and why a password is refused.
 */
export const PASSWORD_MIN_LENGTH = 12
export const PASSWORD_RULE = `${PASSWORD_MIN_LENGTH} caractères au moins, avec des lettres et des chiffres`

/** What is wrong with a new password, in French, or null when it follows the rule. */
export function passwordProblem(password: string): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`
  if (!/[a-zA-Z]/.test(password) || !/[0-9]/.test(password)) return 'Le mot de passe doit contenir des lettres et des chiffres.'
  return null
}
