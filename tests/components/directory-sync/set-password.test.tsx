import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { AuthProvider } from '@/auth/AuthProvider'
import { RequireAuth } from '@/app/guards'
import { createFakeGateway, makeUser } from '../support/fake-auth'

// The supabase-js client is the neighbour stubbed: the page's api.ts calls run for real.
const auth = vi.hoisted(() => ({ setSession: vi.fn(), updateUser: vi.fn() }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => ({ auth }) }))

const { SetPasswordPage } = await import('@/features/directory-sync/SetPasswordPage')

const invited = makeUser('user', { id: 'id-invitee', email: 'nouvelle@example.com' })
// The browser had no session when the page loaded: the provider settled as signed out. The session the link carries
// exists for the client once setSession has run, as supabase-js keeps it.
let sessionSet = false
const gateway = createFakeGateway({ accounts: [invited] })
gateway.restoreSession.mockImplementation(async () => (sessionSet ? { id: invited.id, email: invited.email, fullName: null } : null))

function renderAt(hash: string) {
  render(
    <MemoryRouter initialEntries={[`/mot-de-passe${hash}`]}>
      <AuthProvider loadGateway={async () => gateway} storedSessionExists={() => false}>
        <Routes>
          <Route path="/mot-de-passe" element={<SetPasswordPage />} />
          <Route path="/login" element={<h1>Connexion</h1>} />
          <Route
            path="/app/dashboard"
            element={
              <RequireAuth>
                <h1>Tableau de bord</h1>
              </RequireAuth>
            }
          />
        </Routes>
      </AuthProvider>
    </MemoryRouter>,
  )
  return userEvent.setup()
}

beforeEach(() => {
  sessionSet = false
  auth.setSession.mockReset().mockImplementation(async () => {
    sessionSet = true
    return { data: {}, error: null }
  })
  auth.updateUser.mockReset().mockResolvedValue({ data: {}, error: null })
})

describe('Choisir mon mot de passe', () => {
  it.each([
    ['expired or reused', '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired'],
    ['without anything', ''],
  ])('explains in French that a link %s is no longer valid, and offers the sign-in page', (_, hash) => {
    renderAt(hash)
    expect(screen.getByRole('heading', { name: "Lien d'invitation invalide" })).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent("Ce lien n'est plus valable : il a expiré ou a déjà servi.")
    expect(screen.getByRole('link', { name: 'Aller à la connexion' })).toHaveAttribute('href', '/login')
    expect(auth.setSession).not.toHaveBeenCalled()
  })

  it("sets the invited person's password with the link's session and lands on their dashboard, signed in", async () => {
    const user = renderAt('#access_token=acces&expires_in=3600&refresh_token=renouvel&token_type=bearer&type=invite')
    await user.type(screen.getByLabelText(/^Nouveau mot de passe/), 'court')
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'court')
    await user.click(screen.getByRole('button', { name: 'Enregistrer et me connecter' }))
    expect(screen.getByText('Le mot de passe doit contenir au moins 12 caractères.')).toBeInTheDocument()
    expect(auth.updateUser).not.toHaveBeenCalled()
    // Long enough but letters only: the rule, said under the field before typing, asks for digits too.
    expect(screen.getByLabelText(/^Nouveau mot de passe/)).toHaveAccessibleDescription(/12 caractères au moins, avec des lettres et des chiffres/)
    await user.clear(screen.getByLabelText(/^Nouveau mot de passe/))
    await user.clear(screen.getByLabelText(/^Confirmer le mot de passe/))
    await user.type(screen.getByLabelText(/^Nouveau mot de passe/), 'seulementdeslettres')
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'seulementdeslettres')
    await user.click(screen.getByRole('button', { name: 'Enregistrer et me connecter' }))
    expect(screen.getByText('Le mot de passe doit contenir des lettres et des chiffres.')).toBeInTheDocument()
    expect(auth.updateUser).not.toHaveBeenCalled()

    await user.clear(screen.getByLabelText(/^Nouveau mot de passe/))
    await user.clear(screen.getByLabelText(/^Confirmer le mot de passe/))
    await user.type(screen.getByLabelText(/^Nouveau mot de passe/), 'Bienvenue2026!')
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'Bienvenue2026!')
    await user.click(screen.getByRole('button', { name: 'Enregistrer et me connecter' }))
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument()
    expect(auth.setSession).toHaveBeenCalledWith({ access_token: 'acces', refresh_token: 'renouvel' })
    expect(auth.updateUser).toHaveBeenCalledWith({ password: 'Bienvenue2026!' })
  })

  it('says in French why the auth server refused a password it finds too weak', async () => {
    auth.updateUser.mockResolvedValue({ data: {}, error: { code: 'weak_password', message: 'Password should be at least 12 characters.' } })
    const user = renderAt('#access_token=acces&expires_in=3600&refresh_token=renouvel&token_type=bearer&type=invite')
    await user.type(screen.getByLabelText(/^Nouveau mot de passe/), 'Bienvenue2026!')
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), 'Bienvenue2026!')
    await user.click(screen.getByRole('button', { name: 'Enregistrer et me connecter' }))
    expect(await screen.findByText('Ce mot de passe est trop faible : 12 caractères au moins, avec des lettres et des chiffres.')).toBeInTheDocument()
  })
})
