/** Why a sign-in failed, worded for the person at the login page. */
export type SignInFailureKind = 'credentials' | 'deactivated' | 'profile' | 'unavailable' | 'googleDisabled'

const MESSAGES: Record<SignInFailureKind, string> = {
  credentials: 'Identifiants invalides. Veuillez réessayer.',
  deactivated: 'Ce compte est désactivé. Adressez-vous à votre administrateur.',
  profile: "Votre profil n'a pas pu être chargé. Veuillez réessayer.",
  unavailable: 'Le service de connexion est indisponible. Veuillez réessayer dans quelques instants.',
  googleDisabled: "La connexion avec Google n'est pas activée pour cette application.",
}

export class SignInError extends Error {
  readonly kind: SignInFailureKind

  constructor(kind: SignInFailureKind, options?: { cause?: unknown }) {
    super(MESSAGES[kind], options)
    this.name = 'SignInError'
    this.kind = kind
  }
}

export function signInErrorMessage(error: unknown): string {
  return error instanceof SignInError ? error.message : MESSAGES.unavailable
}
