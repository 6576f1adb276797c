import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { render } from '@testing-library/react'
import { ContactForm } from '@/features/contact/ContactForm'
import { ContactSendError } from '@/features/contact/api'
import { renderApp } from './support/render-app'

async function fill(user: ReturnType<typeof userEvent.setup>, values: { name?: string; email?: string; subject?: string; message?: string }) {
  if (values.name) await user.type(screen.getByLabelText(/Nom/), values.name)
  if (values.email) await user.type(screen.getByLabelText(/Adresse e-mail/), values.email)
  if (values.subject) await user.type(screen.getByLabelText(/Sujet/), values.subject)
  if (values.message) await user.type(screen.getByLabelText(/Message/), values.message)
}

const complete = { name: 'Marc Dubois', email: 'marc@example.com', subject: 'Démo', message: 'Bonjour', website: '' }

describe('Contact page', () => {
  it("shows the provider's details and the support promises", async () => {
    renderApp({ path: '/contact' })
    expect(await screen.findByRole('heading', { name: 'Contactez-nous' })).toBeInTheDocument()
    expect(screen.getByText(/sous 24 heures/)).toBeInTheDocument()
    expect(screen.getByText(/du lundi au vendredi, de 9h à 18h/)).toBeInTheDocument()
  })
})

describe('ContactForm', () => {
  it('requires every field', async () => {
    const user = userEvent.setup()
    const send = vi.fn()
    render(<ContactForm send={send} />)
    await fill(user, { name: 'Marc', email: 'marc@example.com' })
    await user.click(screen.getByRole('button', { name: 'Envoyer le message' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Tous les champs sont obligatoires.')
    expect(send).not.toHaveBeenCalled()
  })

  it('requires an @ in the e-mail', async () => {
    const user = userEvent.setup()
    render(<ContactForm send={vi.fn()} />)
    await fill(user, { ...complete, email: 'marc.example.com' })
    await user.click(screen.getByRole('button', { name: 'Envoyer le message' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Veuillez entrer une adresse email valide.')
  })

  it('goes through submitting to submitted, then offers another message', async () => {
    const user = userEvent.setup()
    let finish: () => void = () => {}
    const send = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    render(<ContactForm send={send} />)
    await fill(user, complete)
    await user.click(screen.getByRole('button', { name: 'Envoyer le message' }))
    expect(send).toHaveBeenCalledWith(complete)
    expect(screen.getByRole('button', { name: 'Envoyer le message' })).toBeDisabled()
    finish()
    expect(await screen.findByRole('heading', { name: 'Message envoyé' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Envoyer un autre message' }))
    expect(screen.getByLabelText(/Nom/)).toHaveValue('')
  })

  it("shows the server's message on a refusal", async () => {
    const user = userEvent.setup()
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    render(<ContactForm send={vi.fn().mockRejectedValue(new ContactSendError('Trop de messages, réessayez plus tard.'))} />)
    await fill(user, complete)
    await user.click(screen.getByRole('button', { name: 'Envoyer le message' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Trop de messages, réessayez plus tard.')
    consoleError.mockRestore()
  })

  it('shows the generic message on any other failure', async () => {
    const user = userEvent.setup()
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    render(<ContactForm send={vi.fn().mockRejectedValue(new TypeError('boom'))} />)
    await fill(user, complete)
    await user.click(screen.getByRole('button', { name: 'Envoyer le message' }))
    expect(await screen.findByRole('alert')).toHaveTextContent("Une erreur s'est produite.")
    consoleError.mockRestore()
  })
})
