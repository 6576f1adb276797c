import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Menu } from '@/components/ui/Menu'

function renderMenu() {
  const chosen = vi.fn()
  const items = ['Export Excel', 'Modifier', 'Supprimer'].map((label) => ({ label, onSelect: () => chosen(label) }))
  render(
    <>
      <Menu label="Autres actions pour Revue T4" items={items} />
      <button type="button">Après</button>
    </>,
  )
  return { chosen, button: screen.getByRole('button', { name: 'Autres actions pour Revue T4' }) }
}

describe('Menu', () => {
  it('is a closed menu button until opened', () => {
    const { button } = renderMenu()
    expect(button).toHaveAttribute('aria-haspopup', 'menu')
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('opens from the keyboard on its first item, moves with the arrows, and Escape gives focus back to its button', async () => {
    const user = userEvent.setup()
    const { button } = renderMenu()
    await user.tab()
    await user.keyboard('{Enter}')
    expect(button).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByRole('menu', { name: 'Autres actions pour Revue T4' })).toBeInTheDocument()
    expect(screen.getByRole('menuitem', { name: 'Export Excel' })).toHaveFocus()
    await user.keyboard('{ArrowDown}')
    expect(screen.getByRole('menuitem', { name: 'Modifier' })).toHaveFocus()
    await user.keyboard('{ArrowDown}{ArrowDown}')
    expect(screen.getByRole('menuitem', { name: 'Export Excel' })).toHaveFocus()
    await user.keyboard('{ArrowUp}')
    expect(screen.getByRole('menuitem', { name: 'Supprimer' })).toHaveFocus()
    await user.keyboard('{Home}')
    expect(screen.getByRole('menuitem', { name: 'Export Excel' })).toHaveFocus()
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('menu')).toBeNull()
    expect(button).toHaveFocus()
    expect(button).toHaveAttribute('aria-expanded', 'false')
  })

  it('opens on its last item with ↑, and runs the item chosen with Enter, focus back on the button', async () => {
    const user = userEvent.setup()
    const { button, chosen } = renderMenu()
    button.focus()
    await user.keyboard('{ArrowUp}')
    expect(screen.getByRole('menuitem', { name: 'Supprimer' })).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(chosen).toHaveBeenCalledWith('Supprimer')
    expect(screen.queryByRole('menu')).toBeNull()
    expect(button).toHaveFocus()
  })

  it('closes on a click outside it, choosing nothing', async () => {
    const user = userEvent.setup()
    const { button, chosen } = renderMenu()
    await user.click(button)
    expect(screen.getByRole('menu')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Après' }))
    expect(screen.queryByRole('menu')).toBeNull()
    expect(chosen).not.toHaveBeenCalled()
  })
})
