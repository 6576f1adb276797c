import { screen, waitFor, within } from '@testing-library/react'
import type { Role } from '@/domain/labels'
import { renderApp } from './support/render-app'
import { createFakeGateway, makeUser } from './support/fake-auth'

// SPEC §2, "Menu by role".
const EXPECTED_MENUS: Record<Role, string[]> = {
  user: ['Tableau de bord', 'Mes revues'],
  manager: ['Tableau de bord', 'Mes revues', 'Équipe'],
  bpo_metier: ['Tableau de bord', 'Mes revues', 'Applications'],
  bpo_groupe: ['Tableau de bord', 'Mes revues', 'Applications'],
  ra: ['Tableau de bord', 'Mes revues', 'Applications'],
  admin: ['Tableau de bord', 'Applications', 'Campagnes', 'Utilisateurs', 'Contrôles', "Envois d'e-mails"],
  rssi: ['Tableau de bord', 'Applications', 'Campagnes', 'Utilisateurs', 'Contrôles', 'Conformité', 'Audit', "Envois d'e-mails"],
}

async function renderSignedIn(role: Role, overrides = {}) {
  const view = renderApp({ path: '/app/dashboard', gateway: createFakeGateway({ sessionUser: makeUser(role, overrides) }) })
  await screen.findByRole('heading', { name: 'Tableau de bord' })
  return view
}

describe('Authenticated shell', () => {
  it.each(Object.entries(EXPECTED_MENUS))('shows the %s exactly its menu', async (role, expected) => {
    await renderSignedIn(role as Role)
    const nav = screen.getByRole('navigation', { name: 'Menu principal' })
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(expected)
  })

  it('shows initials, full name, e-mail and the French role label in the header', async () => {
    await renderSignedIn('ra', { firstName: 'nadia', lastName: 'Moreau', email: 'ra@example.com' })
    const banner = screen.getByRole('banner')
    expect(within(banner).getByText('NM')).toBeInTheDocument()
    expect(within(banner).getByText('nadia Moreau')).toBeInTheDocument()
    expect(within(banner).getByText('ra@example.com')).toBeInTheDocument()
    expect(within(banner).getByText("Responsable d'Application")).toBeInTheDocument()
  })

  it('shows ?? when a name is missing', async () => {
    await renderSignedIn('user', { firstName: '', lastName: 'Martin' })
    expect(within(screen.getByRole('banner')).getByText('??')).toBeInTheDocument()
  })

  it('offers Profil and Déconnexion in the user menu', async () => {
    const { user, currentPath } = await renderSignedIn('manager')
    await user.click(screen.getByRole('button', { name: /Menu utilisateur/ }))
    const menu = screen.getByRole('menu', { name: 'Menu utilisateur' })
    expect(within(menu).getByRole('menuitem', { name: 'Déconnexion' })).toBeInTheDocument()
    await user.click(within(menu).getByRole('menuitem', { name: 'Profil' }))
    await waitFor(() => expect(currentPath()).toBe('/app/profile'))
  })

  it('closes the user menu on Escape', async () => {
    const { user } = await renderSignedIn('manager')
    const trigger = screen.getByRole('button', { name: /Menu utilisateur/ })
    await user.click(trigger)
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('menu')).not.toBeInTheDocument()
    expect(trigger).toHaveFocus()
  })

  it('has a mobile menu whose Profil goes to /app/profile', async () => {
    const { user, currentPath } = await renderSignedIn('user')
    await user.click(screen.getByRole('button', { name: 'Ouvrir le menu' }))
    const mobileNav = screen.getByRole('navigation', { name: 'Menu mobile' })
    expect(within(mobileNav).getAllByRole('link').map((link) => link.textContent)).toEqual(EXPECTED_MENUS.user)
    const profile = screen.getByRole('link', { name: 'Profil' })
    expect(profile).toHaveAttribute('href', '/app/profile')
    await user.click(profile)
    await waitFor(() => expect(currentPath()).toBe('/app/profile'))
    expect(screen.queryByRole('navigation', { name: 'Menu mobile' })).not.toBeInTheDocument()
  })

  it('gives reviewers a notifications link to Mes revues, with no count yet', async () => {
    await renderSignedIn('user')
    const bell = screen.getByRole('link', { name: 'Notifications : mes revues' })
    expect(bell).toHaveAttribute('href', '/app/reviews')
    expect(bell.children).toHaveLength(1)
  })

  it('has a footer', async () => {
    await renderSignedIn('admin')
    expect(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact')
  })
})
