import { screen, waitFor, within } from '@testing-library/react'
import { renderApp } from './support/render-app'
import { createFakeGateway, makeUser } from './support/fake-auth'

describe('404', () => {
  it('titles unknown paths Page non trouvée, with links to / and /contact', async () => {
    renderApp({ path: '/cette-page-n-existe-pas' })
    expect(await screen.findByRole('heading', { name: 'Page non trouvée' })).toBeInTheDocument()
    const main = screen.getByRole('main')
    expect(within(main).getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/')
    expect(within(main).getByRole('link', { name: 'Nous contacter' })).toHaveAttribute('href', '/contact')
  })

  it('covers unknown paths inside /app too', async () => {
    renderApp({ path: '/app/inconnu', gateway: createFakeGateway({ sessionUser: makeUser('user') }) })
    expect(await screen.findByRole('heading', { name: 'Page non trouvée' })).toBeInTheDocument()
  })
})

describe('Public footer', () => {
  it('links to the public pages and to the provider, with its contact details', async () => {
    renderApp({ path: '/faq' })
    const footer = await screen.findByRole('contentinfo')
    const links = within(within(footer).getByRole('navigation', { name: 'Liens du pied de page' })).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/',
      '/login',
      '/faq',
      '/contact',
      '/legal',
      '/privacy',
      'https://www.recertif.fr',
    ])
    expect(links.at(-1)).toHaveAttribute('target', '_blank')
    expect(within(footer).getByRole('link', { name: 'contact@recertif.fr' })).toHaveAttribute('href', 'mailto:contact@recertif.fr')
  })
})

describe('Home page', () => {
  it('leads a visitor to /login', async () => {
    renderApp({ path: '/' })
    expect(await screen.findByRole('link', { name: 'Accéder à mon espace' })).toHaveAttribute('href', '/login')
  })

  it('leads a signed-in person to the dashboard', async () => {
    renderApp({ path: '/', gateway: createFakeGateway({ sessionUser: makeUser('user') }) })
    await waitFor(() => expect(screen.getByRole('link', { name: 'Accéder à mon espace' })).toHaveAttribute('href', '/app/dashboard'))
  })
})

describe('FAQ', () => {
  it('filters by category and opens answers in an accordion', async () => {
    const { user } = renderApp({ path: '/faq' })
    await screen.findByRole('heading', { name: 'Questions fréquentes' })
    const categories = screen.getByRole('group', { name: 'Catégories' })
    expect(within(categories).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Toutes',
      'Général',
      "Droits d'accès",
      'Campagnes',
      'Audit et conformité',
      'Sécurité',
    ])

    await user.click(within(categories).getByRole('button', { name: 'Audit et conformité' }))
    expect(within(categories).getByRole('button', { name: 'Audit et conformité' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.queryByRole('button', { name: /^Quels sont les rôles dans Recertif\s\?$/ })).not.toBeInTheDocument()

    const question = screen.getByRole('button', { name: /^Quelles normes Recertif aide-t-il à respecter\s\?$/ })
    expect(question).toHaveAttribute('aria-expanded', 'false')
    await user.click(question)
    expect(question).toHaveAttribute('aria-expanded', 'true')
    const answer = screen.getByRole('region', { name: /^Quelles normes Recertif aide-t-il à respecter\s\?$/ })
    for (const standard of ['ISO 27001', 'RGPD', 'SOX', 'PCI DSS']) expect(answer).toHaveTextContent(standard)
    await user.click(question)
    expect(question).toHaveAttribute('aria-expanded', 'false')
  })

  it('describes the roles and mentions optional two-factor authentication', async () => {
    const { user } = renderApp({ path: '/faq' })
    await user.click(await screen.findByRole('button', { name: /^Quels sont les rôles dans Recertif\s\?$/ }))
    const roles = screen.getByRole('region', { name: /^Quels sont les rôles dans Recertif\s\?$/ })
    for (const role of ['Utilisateur', 'Manager', 'BPO Métier', 'BPO Groupe', "Responsable d'Application", 'Administrateur', 'RSSI']) {
      expect(roles).toHaveTextContent(role)
    }
    await user.click(screen.getByRole('button', { name: /^La double authentification est-elle disponible\s\?$/ }))
    expect(screen.getByRole('region', { name: /^La double authentification est-elle disponible\s\?$/ })).toHaveTextContent('optionnelle')
  })
})

describe('Error page', () => {
  it("shows SPEC's default wording with Accueil and Réessayer", async () => {
    renderApp({ path: '/500' })
    expect(await screen.findByRole('heading', { name: 'Une erreur est survenue' })).toBeInTheDocument()
    expect(screen.getByText('500')).toBeInTheDocument()
    expect(screen.getByText('Nous rencontrons des difficultés techniques. Veuillez réessayer plus tard.')).toBeInTheDocument()
    const main = screen.getByRole('main')
    expect(within(main).getByRole('link', { name: 'Accueil' })).toHaveAttribute('href', '/')
    expect(within(main).getByRole('button', { name: 'Réessayer' })).toBeInTheDocument()
  })
})

describe('Legal pages', () => {
  it.each([
    ['/legal', 'Mentions légales'],
    ['/privacy', 'Politique de confidentialité'],
  ])('%s has its title', async (path, title) => {
    renderApp({ path })
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument()
  })
})
