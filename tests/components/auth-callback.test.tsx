import { screen, waitFor } from '@testing-library/react'
import { renderApp } from './support/render-app'
import { createFakeGateway, makeUser } from './support/fake-auth'

describe('/auth/callback', () => {
  it('completes the code exchange and returns to the page kept before leaving for Google', async () => {
    sessionStorage.setItem('recertif.return-to', '/app/reviews')
    const gateway = createFakeGateway({ accounts: [makeUser('manager')] })
    const { currentPath } = renderApp({ path: '/auth/callback?code=abc123', gateway })
    await waitFor(() => expect(currentPath()).toBe('/app/reviews'))
    expect(gateway.exchangeCode).toHaveBeenCalledTimes(1)
    expect(gateway.exchangeCode).toHaveBeenCalledWith('abc123')
    expect(await screen.findByRole('heading', { name: 'Mes revues' })).toBeInTheDocument()
  })

  it("shows the provider's error in French", async () => {
    sessionStorage.setItem('recertif.sign-in-provider', 'google')
    renderApp({ path: '/auth/callback?error=access_denied&error_description=The+user+denied+access' })
    expect(await screen.findByRole('alert')).toHaveTextContent('La connexion avec Google a été annulée ou refusée.')
    expect(screen.getByText('Détail du fournisseur : The user denied access')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Retour à la connexion' })).toHaveAttribute('href', '/login')
  })

  it("shows the server's French reason when Microsoft's sign-in is refused to someone without an account", async () => {
    sessionStorage.setItem('recertif.sign-in-provider', 'azure')
    const reason = "Aucun compte Recertif n'existe pour inconnu@example.com : la connexion ne crée pas de compte, demandez-le à votre administrateur."
    renderApp({ path: `/auth/callback?error=access_denied&error_description=${encodeURIComponent(reason)}` })
    expect(await screen.findByRole('alert')).toHaveTextContent('La connexion avec Microsoft a été annulée ou refusée.')
    expect(screen.getByText(`Détail du fournisseur : ${reason}`)).toBeInTheDocument()
  })

  it('does not name a provider when the tab did not start the sign-in', async () => {
    renderApp({ path: '/auth/callback?error=access_denied' })
    expect(await screen.findByRole('alert')).toHaveTextContent('La connexion a été annulée ou refusée.')
  })

  it('refuses a callback without a code', async () => {
    renderApp({ path: '/auth/callback' })
    expect(await screen.findByRole('alert')).toHaveTextContent('Ce lien de connexion est invalide ou a expiré.')
  })

  it('reports a failed exchange', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const gateway = createFakeGateway()
    gateway.exchangeCode.mockRejectedValueOnce(new Error('network'))
    renderApp({ path: '/auth/callback?code=expired', gateway })
    expect(await screen.findByRole('alert')).toHaveTextContent('Le service de connexion est indisponible.')
    consoleError.mockRestore()
  })
})
