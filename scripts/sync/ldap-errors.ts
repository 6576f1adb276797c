import { InvalidCredentialsError, NoSuchObjectError, InsufficientAccessError, ConfidentialityRequiredError } from 'ldapts'
import type { SyncConfig } from './config'

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])

/** What went wrong with the directory, in French, saying which setting to check. */
export function explainLdapError(error: unknown, ldap: SyncConfig['ldap'], during?: string): string {
  const where = during ? ` pendant ${during}` : ''
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof InvalidCredentialsError) {
    return `L'annuaire refuse la connexion du compte de service ${ldap.bindDn} : identifiant ou mot de passe incorrect (ldap.bindDn, ldap.bindPasswordEnv).`
  }
  if (error instanceof NoSuchObjectError) return `Entrée introuvable dans l'annuaire${where} : vérifiez le DN configuré.`
  if (error instanceof InsufficientAccessError) return `Le compte de service ${ldap.bindDn} n'a pas les droits nécessaires${where} (docs/ldap-connector.md).`
  if (error instanceof ConfidentialityRequiredError) return `L'annuaire exige une connexion chiffrée : utilisez ldaps:// ou "startTls": true.`
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return `Annuaire injoignable à ${ldap.url} (${code}) : vérifiez ldap.url, le réseau et le pare-feu.`
  if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return `Le certificat TLS de l'annuaire n'est pas reconnu (${code}) : indiquez l'autorité de l'organisation dans ldap.caFile.`
  }
  if (/timeout|timed out/i.test(message)) return `L'annuaire ${ldap.url} ne répond pas${where} (délai ldap.timeoutMs dépassé).`
  return `Erreur de l'annuaire${where} : ${message}`
}
