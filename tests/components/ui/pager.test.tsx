import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Pager } from '@/components/ui/Pager'

const renderPager = (page: number, total: number | undefined) => {
  const onPage = vi.fn()
  const onSize = vi.fn()
  render(<Pager page={page} size={25} total={total} singular="application" several="applications" onPage={onPage} onSize={onSize} />)
  return { onPage, onSize }
}

describe('Pager', () => {
  it('says where the page stands and moves to the neighbours', async () => {
    const user = userEvent.setup()
    const { onPage, onSize } = renderPager(1, 60)
    expect(screen.getByRole('status')).toHaveTextContent('26–50 sur 60 applications')
    await user.click(screen.getByRole('button', { name: 'Page suivante' }))
    expect(onPage).toHaveBeenLastCalledWith(2)
    await user.click(screen.getByRole('button', { name: 'Page précédente' }))
    expect(onPage).toHaveBeenLastCalledWith(0)
    await user.selectOptions(screen.getByLabelText('Lignes par page'), '100')
    expect(onSize).toHaveBeenCalledWith(100)
  })

  it('goes back to the last page when the list shrank under the reader', () => {
    const { onPage } = renderPager(3, 51)
    expect(onPage).toHaveBeenCalledWith(2)
  })

  it('says nothing before the first answer, and has nowhere to go', () => {
    renderPager(0, undefined)
    expect(screen.getByRole('status')).toHaveTextContent('')
    expect(screen.getByRole('button', { name: 'Page suivante' })).toBeDisabled()
  })
})
