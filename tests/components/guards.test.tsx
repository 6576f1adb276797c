import { act, screen, waitFor } from '@testing-library/react'
import { renderApp } from './support/render-app'
import { createFakeGateway, makeUser } from './support/fake-auth'

describe('Route guards', () => {
  it('sends an unauthenticated visitor to /login and back to the page asked for after sign-in', async () => {
    const rssi = makeUser('rssi', { email: 'rssi@example.com' })
    const { user, currentPath } = renderApp({ path: '/app/audit?page=2', gateway: createFakeGateway({ accounts: [rssi] }) })
    await waitFor(() => expect(currentPath()).toBe('/login'))
    await user.click(await screen.findByRole('button', { name: /rssi@example.com/ }))
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    await waitFor(() => expect(currentPath()).toBe('/app/audit?page=2'))
    expect(await screen.findByRole('heading', { name: 'Audit' })).toBeInTheDocument()
  })

  it('shows Chargement while the session is restored', async () => {
    const gateway = createFakeGateway({ sessionUser: makeUser('user') })
    let release: () => void = () => {}
    gateway.restoreSession.mockImplementationOnce(
      () => new Promise((resolve) => (release = () => resolve({ id: 'id-user', email: 'user@example.com', fullName: null }))),
    )
    renderApp({ path: '/app/dashboard', gateway })
    expect(await screen.findByRole('status')).toHaveTextContent('Chargement')
    release()
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument()
  })

  it('restores a kept session without asking for credentials', async () => {
    const gateway = createFakeGateway({ sessionUser: makeUser('admin') })
    renderApp({ path: '/app/users', gateway })
    expect(await screen.findByRole('heading', { name: 'Utilisateurs' })).toBeInTheDocument()
    expect(gateway.signInWithPassword).not.toHaveBeenCalled()
  })

  it.each([
    ['user', '/app/audit'],
    ['manager', '/app/controls'],
    ['bpo_metier', '/app/team'],
    ['ra', '/app/users'],
    ['admin', '/app/compliance'],
    ['rssi', '/app/reviews'],
  ] as const)('tells a %s opening %s that access is refused', async (role, path) => {
    renderApp({ path, gateway: createFakeGateway({ sessionUser: makeUser(role) }) })
    expect(await screen.findByRole('heading', { name: 'Accès refusé' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Retour au tableau de bord' })).toHaveAttribute('href', '/app/dashboard')
  })

  it('opens /app on the dashboard', async () => {
    const { currentPath } = renderApp({ path: '/app', gateway: createFakeGateway({ sessionUser: makeUser('user') }) })
    await waitFor(() => expect(currentPath()).toBe('/app/dashboard'))
  })

  it('lets everyone open their profile', async () => {
    renderApp({ path: '/app/profile', gateway: createFakeGateway({ sessionUser: makeUser('bpo_groupe') }) })
    expect(await screen.findByRole('heading', { name: 'Profil' })).toBeInTheDocument()
  })

  it('goes to /login when the session ends by itself', async () => {
    const gateway = createFakeGateway({ sessionUser: makeUser('user') })
    const { currentPath } = renderApp({ path: '/app/reviews', gateway })
    await screen.findByRole('heading', { name: 'Mes revues' })
    act(() => gateway.emitSignedOut())
    await waitFor(() => expect(currentPath()).toBe('/login'))
  })
})
