import { screen, waitFor, within } from '@testing-library/react'
import { renderApp } from './support/render-app'
import { SignInError } from '@/auth/errors'
import { createFakeGateway, DEMO_PASSWORD, makeUser } from './support/fake-auth'

const manager = makeUser('manager', { email: 'manager@example.com' })

function loginForm() {
  return screen.findByRole('form', { name: 'Connexion' })
}

describe('Login page', () => {
  it('asks for both fields in French', async () => {
    const { user } = renderApp({ path: '/login' })
    await loginForm()
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    expect(await screen.findByText("L'adresse e-mail est obligatoire.")).toBeInTheDocument()
    expect(screen.getByText('Le mot de passe est obligatoire.')).toBeInTheDocument()
    expect(screen.getByLabelText(/Adresse e-mail/)).toHaveAttribute('aria-invalid', 'true')
  })

  it('checks the e-mail format', async () => {
    const { user, gateway } = renderApp({ path: '/login' })
    await loginForm()
    await user.type(screen.getByLabelText(/Adresse e-mail/), 'marc.dubois')
    await user.type(screen.getByLabelText(/Mot de passe/), 'secret')
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    expect(await screen.findByText('Veuillez saisir une adresse e-mail valide.')).toBeInTheDocument()
    expect(gateway.signInWithPassword).not.toHaveBeenCalled()
  })

  it('shows the shared demo password and fills the form from a demo account', async () => {
    const { user } = renderApp({ path: '/login' })
    const demo = await screen.findByRole('region', { name: 'Comptes de démonstration' })
    expect(demo).toHaveTextContent(DEMO_PASSWORD)
    // Each button is named by exactly what it shows (WCAG 2.5.3, axe's label-content-name-mismatch), and says what it does.
    const accounts = within(demo).getAllByRole('button')
    const texts = [
      'Utilisateur user@example.com',
      'Manager manager@example.com',
      'BPO Métier bpo@example.com',
      'BPO Groupe bpo.groupe@example.com',
      "Responsable d'Application ra@example.com",
      'Administrateur admin@example.com',
      'RSSI rssi@example.com',
    ]
    expect(accounts.map((button) => button.textContent)).toEqual(texts)
    for (const text of texts) {
      expect(within(demo).getByRole('button', { name: text })).toHaveAccessibleDescription('Choisissez un compte pour remplir le formulaire.')
    }
    await user.click(within(demo).getByRole('button', { name: /rssi@example.com/ }))
    expect(screen.getByLabelText(/Adresse e-mail/)).toHaveValue('rssi@example.com')
    expect(screen.getByLabelText(/Mot de passe/)).toHaveValue(DEMO_PASSWORD)
  })

  it("reports wrong credentials with SPEC's message", async () => {
    const { user } = renderApp({ path: '/login', gateway: createFakeGateway({ accounts: [manager] }) })
    await loginForm()
    await user.type(screen.getByLabelText(/Adresse e-mail/), 'manager@example.com')
    await user.type(screen.getByLabelText(/Mot de passe/), 'wrong')
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Identifiants invalides. Veuillez réessayer.')
  })

  it('signs in, records the sign-in and goes to the dashboard', async () => {
    const gateway = createFakeGateway({ accounts: [manager] })
    const { user, currentPath } = renderApp({ path: '/login', gateway })
    await user.click(await screen.findByRole('button', { name: /manager@example.com/ }))
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    await waitFor(() => expect(currentPath()).toBe('/app/dashboard'))
    expect(gateway.signInWithPassword).toHaveBeenCalledWith({ email: 'manager@example.com', password: DEMO_PASSWORD, remember: false })
    expect(gateway.recordLogin).toHaveBeenCalledWith(manager.id)
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument()
  })

  it('passes the remember-me choice to the sign-in', async () => {
    const gateway = createFakeGateway({ accounts: [manager] })
    const { user } = renderApp({ path: '/login', gateway })
    await user.click(await screen.findByRole('button', { name: /manager@example.com/ }))
    await user.click(screen.getByRole('checkbox', { name: 'Se souvenir de moi' }))
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    await waitFor(() => expect(gateway.signInWithPassword).toHaveBeenCalledWith(expect.objectContaining({ remember: true })))
  })

  it('leaves the visitor unauthenticated when the profile cannot be loaded', async () => {
    const gateway = createFakeGateway({ accounts: [manager] })
    gateway.loadProfile.mockRejectedValueOnce(new Error('REST down'))
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { user, currentPath } = renderApp({ path: '/login', gateway })
    await user.click(await screen.findByRole('button', { name: /manager@example.com/ }))
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    expect(await screen.findByRole('alert')).toHaveTextContent("Votre profil n'a pas pu être chargé.")
    expect(gateway.signOut).toHaveBeenCalledWith('local')
    expect(currentPath()).toBe('/login')
    consoleError.mockRestore()
  })

  it('sends a visitor who is already signed in away from the login page', async () => {
    const { currentPath } = renderApp({ path: '/login', gateway: createFakeGateway({ sessionUser: manager }) })
    await waitFor(() => expect(currentPath()).toBe('/app/dashboard'))
  })

  it('says so after a logout', async () => {
    renderApp({ path: '/login?logged_out=true' })
    expect(await screen.findByText('Vous avez été déconnecté.')).toBeInTheDocument()
  })

  it('explains an inactivity sign-out', async () => {
    renderApp({ path: '/login?logged_out=true&reason=inactivity' })
    expect(await screen.findByText("Vous avez été déconnecté après 5 minutes d'inactivité.")).toBeInTheDocument()
  })

  it.each([
    ['Google', 'google'],
    ['Microsoft', 'azure'],
  ] as const)('starts the %s sign-in towards /auth/callback, keeping the page to return to', async (name, provider) => {
    const gateway = createFakeGateway()
    const { user } = renderApp({ path: '/login', state: { from: { pathname: '/app/reviews', search: '', hash: '' } }, gateway })
    await user.click(await screen.findByRole('button', { name: `Se connecter avec ${name}` }))
    await waitFor(() =>
      expect(gateway.signInWithOAuth).toHaveBeenCalledWith({ provider, redirectTo: `${window.location.origin}/auth/callback`, remember: false }),
    )
    expect(gateway.signInWithOAuth).toHaveBeenCalledTimes(1)
    expect(sessionStorage.getItem('recertif.return-to')).toBe('/app/reviews')
    expect(sessionStorage.getItem('recertif.sign-in-provider')).toBe(provider)
  })

  it('passes the remember-me choice to the Microsoft sign-in', async () => {
    const gateway = createFakeGateway()
    const { user } = renderApp({ path: '/login', gateway })
    await user.click(await screen.findByRole('checkbox', { name: 'Se souvenir de moi' }))
    await user.click(screen.getByRole('button', { name: 'Se connecter avec Microsoft' }))
    await waitFor(() => expect(gateway.signInWithOAuth).toHaveBeenCalledWith(expect.objectContaining({ provider: 'azure', remember: true })))
  })

  it.each([
    ['Google', 'googleDisabled'],
    ['Microsoft', 'azureDisabled'],
  ] as const)('says so when %s sign-in is not enabled', async (name, kind) => {
    const gateway = createFakeGateway()
    gateway.signInWithOAuth.mockRejectedValueOnce(new SignInError(kind))
    const { user, currentPath } = renderApp({ path: '/login', gateway })
    await user.click(await screen.findByRole('button', { name: `Se connecter avec ${name}` }))
    expect(await screen.findByRole('alert')).toHaveTextContent(`La connexion avec ${name} n'est pas activée pour cette application.`)
    expect(currentPath()).toBe('/login')
    expect(sessionStorage.getItem('recertif.return-to')).toBeNull()
    expect(sessionStorage.getItem('recertif.sign-in-provider')).toBeNull()
  })
})
