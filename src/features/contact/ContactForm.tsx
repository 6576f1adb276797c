import { useId, useState, type FormEvent } from 'react'
import { CheckCircle2, Send } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { TextInput } from '@/components/ui/TextInput'
import { ContactSendError, sendContactMessage } from './api'
import { CONTACT_MESSAGES, EMPTY_CONTACT_MESSAGE, validateContactMessage, type ContactMessage } from './model'

type FormState = { kind: 'idle' } | { kind: 'submitting' } | { kind: 'submitted' } | { kind: 'error'; message: string }

export function ContactForm({ send = sendContactMessage }: { send?: (message: ContactMessage) => Promise<void> }) {
  const [values, setValues] = useState<ContactMessage>(EMPTY_CONTACT_MESSAGE)
  const [state, setState] = useState<FormState>({ kind: 'idle' })
  const messageId = useId()

  const update = (field: keyof ContactMessage) => (value: string) => setValues((current) => ({ ...current, [field]: value }))

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const invalid = validateContactMessage(values)
    if (invalid) {
      setState({ kind: 'error', message: invalid })
      return
    }
    setState({ kind: 'submitting' })
    try {
      await send(values)
      setState({ kind: 'submitted' })
      setValues(EMPTY_CONTACT_MESSAGE)
    } catch (error) {
      console.error('Contact message not sent', error)
      setState({ kind: 'error', message: error instanceof ContactSendError ? error.message : CONTACT_MESSAGES.unexpected })
    }
  }

  if (state.kind === 'submitted') {
    return (
      <div role="status" className="rounded-lg border border-green-200 bg-green-50 p-6 text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto h-10 w-10 text-green-600" />
        <h2 className="mt-3 text-lg font-semibold text-gray-900">Message envoyé</h2>
        <p className="mt-1 text-sm text-gray-600">Merci pour votre message. Nous vous répondrons sous 24 heures.</p>
        <Button variant="outline" className="mt-4" onClick={() => setState({ kind: 'idle' })}>
          Envoyer un autre message
        </Button>
      </div>
    )
  }

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Formulaire de contact" className="space-y-4">
      {state.kind === 'error' && <ErrorBox message={state.message} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput label="Nom" name="name" autoComplete="name" required value={values.name} onChange={(event) => update('name')(event.target.value)} />
        <TextInput
          label="Adresse e-mail"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={values.email}
          onChange={(event) => update('email')(event.target.value)}
        />
      </div>
      <TextInput label="Sujet" name="subject" required value={values.subject} onChange={(event) => update('subject')(event.target.value)} />
      <div>
        <label htmlFor={messageId} className="mb-1 block text-sm font-medium text-gray-700">
          Message
          <span aria-hidden="true" className="text-red-600">
            {' '}
            *
          </span>
        </label>
        <textarea
          id={messageId}
          name="message"
          required
          rows={6}
          value={values.message}
          onChange={(event) => update('message')(event.target.value)}
          className="block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500"
        />
      </div>
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label>
          Site web
          <input type="text" name="website" tabIndex={-1} autoComplete="off" value={values.website} onChange={(event) => update('website')(event.target.value)} />
        </label>
      </div>
      <Button type="submit" loading={state.kind === 'submitting'} leftIcon={<Send aria-hidden="true" className="h-4 w-4" />}>
        Envoyer le message
      </Button>
    </form>
  )
}
