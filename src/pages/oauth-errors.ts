/**
 * French wording for the errors an OAuth provider sends back (RFC 6749 §4.1.2.1), naming the provider the tab left
 * for when it is known; the provider's own text is shown as detail.
 */
function oauthErrorMessages(via: string): Record<string, string> {
  return {
    access_denied: `La connexion${via} a été annulée ou refusée.`,
    server_error: "Le fournisseur d'identité a rencontré une erreur.",
    temporarily_unavailable: "Le fournisseur d'identité est momentanément indisponible. Veuillez réessayer plus tard.",
    invalid_request: 'La demande de connexion est invalide.',
    unauthorized_client: `Cette application n'est pas autorisée à utiliser la connexion${via}.`,
    unsupported_response_type: 'La demande de connexion est invalide.',
    invalid_scope: 'La demande de connexion est invalide.',
  }
}

export function oauthErrorMessage(code: string, providerName: string | null): string {
  const via = providerName ? ` avec ${providerName}` : ''
  const messages = oauthErrorMessages(via)
  return (Object.hasOwn(messages, code) && messages[code]) || `La connexion${via} a échoué.`
}

export interface OAuthCallbackParams {
  code: string | null
  error: string | null
  errorDescription: string | null
}

/** Reads the callback's parameters from the query, or from the fragment where some flows put their errors. */
export function readOAuthCallback(search: string, hash: string): OAuthCallbackParams {
  const query = new URLSearchParams(search)
  const fragment = new URLSearchParams(hash.replace(/^#/, ''))
  const pick = (name: string) => query.get(name) ?? fragment.get(name)
  return { code: query.get('code'), error: pick('error'), errorDescription: pick('error_description') }
}
