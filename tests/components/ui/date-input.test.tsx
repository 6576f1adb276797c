import { useState } from 'react'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { DateInput } from '@/components/ui/DateInput'

/** A form holding the ISO day the field gives it, shown beside it, with a reset as a dialog's Réinitialiser does. */
function Form({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial)
  return (
    <>
      <DateInput label="Date de début" value={value} onChange={setValue} />
      <output aria-label="Valeur du formulaire">{value}</output>
      <button type="button" onClick={() => setValue('2026-01-15')}>
        Réinitialiser
      </button>
    </>
  )
}

const field = () => screen.getByLabelText('Date de début')
const formValue = () => screen.getByLabelText('Valeur du formulaire').textContent

describe('DateInput', () => {
  it('shows an ISO day as jj/mm/aaaa, in a text field whatever the browser language', () => {
    render(<Form initial="2026-11-05" />)
    expect(field()).toHaveValue('05/11/2026')
    expect(field()).toHaveAttribute('type', 'text')
    expect(field()).toHaveAttribute('placeholder', 'jj/mm/aaaa')
  })

  it('gives the form an ISO day for a date typed the French way, and shows it the one way once left', async () => {
    const user = userEvent.setup()
    render(<Form />)
    await user.type(field(), '1/2/2027')
    expect(formValue()).toBe('2027-02-01')
    await user.tab()
    expect(field()).toHaveValue('01/02/2027')
    expect(field()).not.toHaveAttribute('aria-invalid')
  })

  it('explains an impossible date in French once the field is left, and gives the form no date', async () => {
    const user = userEvent.setup()
    render(<Form initial="2026-02-01" />)
    await user.clear(field())
    await user.type(field(), '31/02/2026')
    expect(formValue()).toBe('')
    // No error while the person is still typing.
    expect(field()).not.toHaveAttribute('aria-invalid')
    await user.tab()
    expect(field()).toHaveAttribute('aria-invalid', 'true')
    expect(field()).toHaveAccessibleDescription("La date « 31/02/2026 » n'existe pas : vérifiez le jour et le mois.")
  })

  it('says which format it expects for a text that is no date', async () => {
    const user = userEvent.setup()
    render(<Form />)
    await user.type(field(), '12/2026')
    await user.tab()
    expect(field()).toHaveAccessibleDescription("« 12/2026 » n'est pas une date : saisissez-la au format jj/mm/aaaa.")
    expect(formValue()).toBe('')
  })

  it('reads an ISO date pasted from another tool, and follows a value the form resets', async () => {
    const user = userEvent.setup()
    render(<Form />)
    await user.click(field())
    await user.paste('2026-12-31')
    expect(formValue()).toBe('2026-12-31')
    await user.tab()
    expect(field()).toHaveValue('31/12/2026')
    await user.click(screen.getByRole('button', { name: 'Réinitialiser' }))
    expect(field()).toHaveValue('15/01/2026')
  })
})
