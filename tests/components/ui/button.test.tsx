import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Button } from '@/components/ui/Button'

describe('Button', () => {
  it('is disabled, busy and silent while loading', async () => {
    const user = userEvent.setup()
    const onClick = vi.fn()
    render(
      <Button loading onClick={onClick}>
        Enregistrer
      </Button>,
    )
    const button = screen.getByRole('button', { name: 'Enregistrer' })
    expect(button).toBeDisabled()
    expect(button).toHaveAttribute('aria-busy', 'true')
    await user.click(button)
    expect(onClick).not.toHaveBeenCalled()
  })

  it('does not fire when disabled', async () => {
    const user = userEvent.setup()
    const onClick = vi.fn()
    render(
      <Button disabled onClick={onClick}>
        Valider
      </Button>,
    )
    await user.click(screen.getByRole('button', { name: 'Valider' }))
    expect(onClick).not.toHaveBeenCalled()
  })

  it('fires on click and on Enter, and is a plain button by default', async () => {
    const user = userEvent.setup()
    const onClick = vi.fn()
    render(<Button onClick={onClick}>Valider</Button>)
    const button = screen.getByRole('button', { name: 'Valider' })
    expect(button).toHaveAttribute('type', 'button')
    await user.click(button)
    button.focus()
    await user.keyboard('{Enter}')
    expect(onClick).toHaveBeenCalledTimes(2)
  })

  it('applies its variant, size and full width', () => {
    render(
      <Button variant="danger" size="lg" fullWidth>
        Supprimer
      </Button>,
    )
    const button = screen.getByRole('button', { name: 'Supprimer' })
    expect(button).toHaveClass('bg-red-600', 'h-12', 'w-full')
  })

  it('shows its icons, the right one hidden while loading', () => {
    const { rerender } = render(
      <Button leftIcon={<span data-testid="left" />} rightIcon={<span data-testid="right" />}>
        Suivant
      </Button>,
    )
    expect(screen.getByTestId('left')).toBeInTheDocument()
    expect(screen.getByTestId('right')).toBeInTheDocument()
    rerender(
      <Button loading leftIcon={<span data-testid="left" />} rightIcon={<span data-testid="right" />}>
        Suivant
      </Button>,
    )
    expect(screen.queryByTestId('left')).not.toBeInTheDocument()
    expect(screen.queryByTestId('right')).not.toBeInTheDocument()
  })
})
