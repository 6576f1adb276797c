/** An error of one kind among a few, whose message is the French sentence its class gives that kind. */
abstract class KindError<Kind extends string> extends Error {
  readonly kind: Kind

  protected constructor(name: string, kind: Kind, messages: Record<Kind, string>, options?: { cause?: unknown }) {
    super(messages[kind], options)
    this.name = name
    this.kind = kind
  }
}

/** Why a sign-in failed, worded for the person at the login page. */
export type SignInFailureKind = 'credentials' | 'deactivated' | 'profile' | 'unavailable' | 'googleDisabled' | 'azureDisabled'

const MESSAGES: Record<SignInFailureKind, string> = {
  credentials: 'Identifiants invalides. Veuillez réessayer.',
  deactivated: 'Ce compte est désactivé. Adressez-vous à votre administrateur.',
  profile: "Votre profil n'a pas pu être chargé. Veuillez réessayer.",
  unavailable: 'Le service de connexion est indisponible. Veuillez réessayer dans quelques instants.',
  googleDisabled: "La connexion avec Google n'est pas activée pour cette application.",
  azureDisabled: "La connexion avec Microsoft n'est pas activée pour cette application.",
}

export class SignInError extends KindError<SignInFailureKind> {
  constructor(kind: SignInFailureKind, options?: { cause?: unknown }) {
    super('SignInError', kind, MESSAGES, options)
  }
}

export function signInErrorMessage(error: unknown): string {
  return error instanceof SignInError ? error.message : MESSAGES.unavailable
}

/** Why a second-factor code was refused, worded for the person typing it. */
export type SecondFactorFailureKind = 'code' | 'tooMany' | 'unavailable'

const SECOND_FACTOR_MESSAGES: Record<SecondFactorFailureKind, string> = {
  code: 'Code incorrect ou expiré. Saisissez le code à 6 chiffres affiché maintenant par votre application.',
  tooMany: 'Trop de tentatives. Patientez quelques minutes avant de réessayer.',
  unavailable: 'La vérification est indisponible. Veuillez réessayer dans quelques instants.',
}

export class SecondFactorError extends KindError<SecondFactorFailureKind> {
  constructor(kind: SecondFactorFailureKind, options?: { cause?: unknown }) {
    super('SecondFactorError', kind, SECOND_FACTOR_MESSAGES, options)
  }
}

export function secondFactorErrorMessage(error: unknown): string {
  return error instanceof SecondFactorError ? error.message : SECOND_FACTOR_MESSAGES.unavailable
}
