import { useState } from 'react'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'

function DialogHarness({ onClose = () => {} }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false)
  const close = () => {
    onClose()
    setOpen(false)
  }
  return (
    <>
      <Button onClick={() => setOpen(true)}>Ouvrir</Button>
      <Dialog open={open} onClose={close} title="Valider le droit" description="Confirmez votre décision." footer={<Button onClick={close}>Annuler</Button>}>
        <label htmlFor="comment">Commentaire</label>
        <textarea id="comment" />
      </Dialog>
    </>
  )
}

describe('Dialog', () => {
  it('is a modal dialog named by its title and described by its description', async () => {
    const user = userEvent.setup()
    render(<DialogHarness />)
    await user.click(screen.getByRole('button', { name: 'Ouvrir' }))
    const dialog = screen.getByRole('dialog', { name: 'Valider le droit' })
    expect(dialog).toHaveAttribute('aria-modal', 'true')
    expect(dialog).toHaveAccessibleDescription('Confirmez votre décision.')
  })

  it('focuses the first field of its body on opening', async () => {
    const user = userEvent.setup()
    render(<DialogHarness />)
    await user.click(screen.getByRole('button', { name: 'Ouvrir' }))
    expect(screen.getByLabelText('Commentaire')).toHaveFocus()
  })

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const user = userEvent.setup()
    render(<DialogHarness />)
    await user.click(screen.getByRole('button', { name: 'Ouvrir' }))
    const close = screen.getByRole('button', { name: 'Fermer' })
    const comment = screen.getByLabelText('Commentaire')
    const cancel = screen.getByRole('button', { name: 'Annuler' })

    await user.tab()
    expect(cancel).toHaveFocus()
    await user.tab()
    expect(close).toHaveFocus()
    await user.tab()
    expect(comment).toHaveFocus()
    await user.tab({ shift: true })
    expect(close).toHaveFocus()
    await user.tab({ shift: true })
    expect(cancel).toHaveFocus()
  })

  it('closes on Escape and gives focus back to the button that opened it', async () => {
    const user = userEvent.setup()
    const onClose = vi.fn()
    render(<DialogHarness onClose={onClose} />)
    const opener = screen.getByRole('button', { name: 'Ouvrir' })
    await user.click(opener)
    await user.keyboard('{Escape}')
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(opener).toHaveFocus()
  })

  it('is the native dialog element, opened modally', async () => {
    const user = userEvent.setup()
    render(<DialogHarness />)
    await user.click(screen.getByRole('button', { name: 'Ouvrir' }))
    const dialog = screen.getByRole('dialog', { name: 'Valider le droit' })
    expect(dialog).toBeInstanceOf(HTMLDialogElement)
    expect(dialog).toHaveAttribute('open')
  })

  // A download button disabled by its own click dropped focus to <body>, where the panel's key
  // handler never heard Escape.
  it('still closes on Escape when the control that had focus went away by acting in it', async () => {
    const user = userEvent.setup()
    function Busy() {
      const [open, setOpen] = useState(false)
      const [running, setRunning] = useState(false)
      return (
        <>
          <Button onClick={() => setOpen(true)}>Exporter</Button>
          <Dialog open={open} onClose={() => setOpen(false)} title="Export Excel">
            {/* jsdom keeps focus on a button that becomes disabled; Chromium drops it to <body>, as a removal does. */}
            {running ? <p>Préparation du fichier…</p> : <Button onClick={() => setRunning(true)}>Fichier Manager</Button>}
          </Dialog>
        </>
      )
    }
    render(<Busy />)
    const opener = screen.getByRole('button', { name: 'Exporter' })
    await user.click(opener)
    await user.click(screen.getByRole('button', { name: 'Fichier Manager' }))
    expect(document.body).toHaveFocus()
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(opener).toHaveFocus()
  })

  it('stays open on Escape while its caller refuses to close', async () => {
    const user = userEvent.setup()
    const onClose = vi.fn()
    render(
      <Dialog open onClose={onClose} title="Revue du droit">
        <p>Enregistrement…</p>
      </Dialog>,
    )
    await user.keyboard('{Escape}')
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('dialog', { name: 'Revue du droit' })).toHaveAttribute('open')
  })

  it('opens again when the browser closed it itself while its caller refuses to close', async () => {
    const onClose = vi.fn()
    render(
      <Dialog open onClose={onClose} title="Revue du droit">
        <p>Enregistrement…</p>
      </Dialog>,
    )
    const dialog = screen.getByRole<HTMLDialogElement>('dialog', { name: 'Revue du droit' })
    // What Chromium does on an Escape it will not let the page cancel (no user gesture since the last one).
    act(() => dialog.close())
    expect(onClose).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(dialog).toHaveAttribute('open'))
  })

  it('closes on a click on the backdrop but not on a click inside', async () => {
    const user = userEvent.setup()
    render(<DialogHarness />)
    await user.click(screen.getByRole('button', { name: 'Ouvrir' }))
    const dialog = screen.getByRole('dialog', { name: 'Valider le droit' })
    await user.click(screen.getByLabelText('Commentaire'))
    expect(dialog).toBeInTheDocument()
    // The backdrop belongs to the <dialog> element: a click on it targets the element itself.
    await user.click(dialog)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('closes with its Fermer button', async () => {
    const user = userEvent.setup()
    render(<DialogHarness />)
    await user.click(screen.getByRole('button', { name: 'Ouvrir' }))
    await user.click(screen.getByRole('button', { name: 'Fermer' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})
