import { screen, waitFor } from '@testing-library/react'
import { SecondFactorError } from '@/auth/errors'
import { renderApp } from './support/render-app'
import { createFakeGateway, DEMO_PASSWORD, makeUser } from './support/fake-auth'

// The second-factor step of the sign-in, with a fake gateway: which step shows, the code's format checked in French
// before anything is sent, a refused code worded in French, and the app opened only once the code is accepted.
const admin = makeUser('admin', { email: 'admin@example.com' })

async function signInAsAdmin(step: { kind: 'enrol' } | { kind: 'challenge'; factorId: string }) {
  const gateway = createFakeGateway({ accounts: [admin] })
  let passed = false
  gateway.secondFactorStep.mockImplementation(async () => (passed ? null : step))
  gateway.verifyTotp.mockImplementation(async (_factorId: string, code: string) => {
    if (code !== '123456') throw new SecondFactorError('code')
    passed = true
  })
  const rendered = renderApp({ path: '/login', gateway })
  await rendered.user.type(await screen.findByLabelText(/Adresse e-mail/), admin.email)
  await rendered.user.type(screen.getByLabelText(/Mot de passe/), DEMO_PASSWORD)
  await rendered.user.click(screen.getByRole('button', { name: 'Se connecter' }))
  return { ...rendered, gateway }
}

describe('second factor at sign-in', () => {
  it('asks an administrator for the code, checks its format, reports a wrong one and opens the app on the right one', async () => {
    const { user, gateway } = await signInAsAdmin({ kind: 'challenge', factorId: 'f1' })
    expect(await screen.findByRole('heading', { name: 'Vérification en deux étapes' })).toBeInTheDocument()
    expect(gateway.recordLogin).not.toHaveBeenCalled()

    await user.type(screen.getByLabelText(/Code à 6 chiffres/), '12a')
    await user.click(screen.getByRole('button', { name: 'Vérifier' }))
    expect(await screen.findByText('Le code comporte 6 chiffres.')).toBeInTheDocument()
    expect(gateway.verifyTotp).not.toHaveBeenCalled()

    await user.clear(screen.getByLabelText(/Code à 6 chiffres/))
    await user.type(screen.getByLabelText(/Code à 6 chiffres/), '654 321')
    await user.click(screen.getByRole('button', { name: 'Vérifier' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(/Code incorrect/)
    expect(gateway.verifyTotp).toHaveBeenLastCalledWith('f1', '654321')

    await user.clear(screen.getByLabelText(/Code à 6 chiffres/))
    await user.type(screen.getByLabelText(/Code à 6 chiffres/), '123456')
    await user.click(screen.getByRole('button', { name: 'Vérifier' }))
    expect(await screen.findByRole('navigation', { name: 'Menu principal' })).toBeInTheDocument()
    expect(gateway.recordLogin).toHaveBeenCalledWith(admin.id)
  })

  it('shows the QR code and the key to an administrator without a factor yet', async () => {
    await signInAsAdmin({ kind: 'enrol' })
    expect(await screen.findByRole('heading', { name: "Activer l'authentification à deux facteurs" })).toBeInTheDocument()
    expect(await screen.findByRole('img', { name: /QR code/ })).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/))
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Activer et se connecter' })).toBeInTheDocument()
  })
})

describe('demo panel', () => {
  it('shows the demo second factors and, on request, their current codes', async () => {
    const { user } = renderApp({ path: '/login' })
    const panel = await screen.findByRole('region', { name: 'Second facteur de démonstration' })
    expect(panel).toHaveTextContent('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')
    expect(screen.queryByTestId('demo-totp-admin@example.com')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Afficher les codes actuels' }))
    const { Secret, TOTP } = await import('otpauth')
    const totp = new TOTP({ secret: Secret.fromBase32('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP') })
    await waitFor(() => expect(screen.getByTestId('demo-totp-admin@example.com')).toHaveTextContent(/^\d{6}$/))
    // The code of this period, or of the one before if the period turned meanwhile.
    expect([totp.generate(), totp.generate({ timestamp: Date.now() - 30_000 })]).toContain(screen.getByTestId('demo-totp-admin@example.com').textContent)
  })
})
