import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { FileInput } from '@/components/ui/FileInput'

const csv = (name: string) => new File(['E-mail;Application;Rôle\n'], name, { type: 'text/csv' })

describe('FileInput', () => {
  it('speaks French before a file is chosen, and its input keeps its label', () => {
    render(<FileInput label="Fichier CSV" accept=".csv" onFile={() => {}} />)
    expect(screen.getByText('Choisir un fichier')).toBeInTheDocument()
    const input = screen.getByLabelText('Fichier CSV')
    expect(input).toHaveAttribute('type', 'file')
    expect(input).toHaveAccessibleName('Fichier CSV Choisir un fichier')
    expect(input).toHaveAccessibleDescription('Aucun fichier choisi')
  })

  it('is reached with the keyboard and hands over the chosen file, whose name it shows', async () => {
    const user = userEvent.setup()
    const onFile = vi.fn()
    render(<FileInput label="Fichier CSV" onFile={onFile} />)
    await user.tab()
    expect(screen.getByLabelText('Fichier CSV')).toHaveFocus()
    await user.upload(screen.getByLabelText('Fichier CSV'), csv('droits.csv'))
    expect(onFile).toHaveBeenCalledWith(expect.objectContaining({ name: 'droits.csv' }))
    expect(screen.getByLabelText('Fichier CSV')).toHaveAccessibleDescription('droits.csv')
  })

  it('takes a dropped file, and none while disabled', () => {
    const onFile = vi.fn()
    const { rerender } = render(<FileInput label="Fichier CSV" onFile={onFile} />)
    fireEvent.drop(screen.getByTestId('file-drop-zone'), { dataTransfer: { files: [csv('depose.csv')] } })
    expect(onFile).toHaveBeenCalledWith(expect.objectContaining({ name: 'depose.csv' }))
    expect(screen.getByText('depose.csv')).toBeInTheDocument()

    onFile.mockClear()
    rerender(<FileInput label="Fichier CSV" onFile={onFile} disabled />)
    fireEvent.drop(screen.getByTestId('file-drop-zone'), { dataTransfer: { files: [csv('autre.csv')] } })
    expect(onFile).not.toHaveBeenCalled()
    expect(screen.getByLabelText('Fichier CSV')).toBeDisabled()
  })
})
