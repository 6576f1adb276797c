import { render, screen } from '@testing-library/react'
import { Mail } from 'lucide-react'
import { TextInput } from '@/components/ui/TextInput'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/Card'

describe('TextInput', () => {
  it('is labelled, and describes its error and help text', () => {
    render(<TextInput label="Adresse e-mail" error="Adresse invalide." help="Votre adresse professionnelle." icon={<Mail />} />)
    const input = screen.getByLabelText('Adresse e-mail')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAccessibleDescription('Adresse invalide. Votre adresse professionnelle.')
  })

  it('is valid without an error', () => {
    render(<TextInput label="Nom" />)
    expect(screen.getByLabelText('Nom')).not.toHaveAttribute('aria-invalid')
  })
})

describe('ErrorBox', () => {
  it('alerts with the message, or the French default', () => {
    const { rerender } = render(<ErrorBox message="Le serveur ne répond pas." />)
    expect(screen.getByRole('alert')).toHaveTextContent('Le serveur ne répond pas.')
    rerender(<ErrorBox />)
    expect(screen.getByRole('alert')).toHaveTextContent('Une erreur est survenue')
  })
})

describe('Spinner', () => {
  it('announces the loading', () => {
    render(<Spinner />)
    expect(screen.getByRole('status')).toHaveTextContent('Chargement')
  })
})

describe('Card', () => {
  it('renders its parts', () => {
    render(
      <Card>
        <CardHeader>
          <CardTitle>Campagne 2025</CardTitle>
          <CardDescription>Revue annuelle</CardDescription>
        </CardHeader>
        <CardContent>Contenu</CardContent>
        <CardFooter>Pied</CardFooter>
      </Card>,
    )
    expect(screen.getByRole('heading', { name: 'Campagne 2025' })).toBeInTheDocument()
    expect(screen.getByText('Revue annuelle')).toBeInTheDocument()
  })
})
