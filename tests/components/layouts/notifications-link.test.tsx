import { render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { NotificationsLink } from '@/app/layouts/NotificationsLink'

// The neighbour stubbed is the review queue's count, so each test sets the number the bell has to say.
const queue = vi.hoisted(() => ({ count: 0 as number | undefined }))

vi.mock('@/features/reviews/api', () => ({ useReviewQueueCount: () => ({ data: queue.count }) }))

function bellFor(count: number | undefined) {
  queue.count = count
  render(
    <MemoryRouter>
      <NotificationsLink />
    </MemoryRouter>,
  )
  return screen.getByRole('link')
}

describe('NotificationsLink', () => {
  it('names no count while nothing awaits', () => {
    expect(bellFor(0)).toHaveAccessibleName('Notifications : mes revues')
    expect(screen.queryByTestId('notifications-count')).not.toBeInTheDocument()
  })

  it('says « 1 droit » in the singular', () => {
    expect(bellFor(1)).toHaveAccessibleName('Notifications : mes revues, 1 droit en attente de ma décision')
    expect(screen.getByTestId('notifications-count')).toHaveTextContent('1')
  })

  it('says « 2 droits » in the plural', () => {
    expect(bellFor(2)).toHaveAccessibleName('Notifications : mes revues, 2 droits en attente de ma décision')
  })

  it('writes a large count the French way while the badge stays short', () => {
    expect(bellFor(1500)).toHaveAccessibleName('Notifications : mes revues, 1\u202f500 droits en attente de ma décision')
    expect(screen.getByTestId('notifications-count')).toHaveTextContent('99+')
  })
})
