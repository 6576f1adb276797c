import { render, screen } from '@testing-library/react'
import { ProgressBar } from '@/components/ui/ProgressBar'

function bar(value: number, kind?: 'rate' | 'progress') {
  render(<ProgressBar value={value} label="Conformité SAP" kind={kind} />)
  const progressbar = screen.getByRole('progressbar', { name: 'Conformité SAP' })
  return { progressbar, fill: progressbar.firstElementChild as HTMLElement }
}

describe('ProgressBar', () => {
  it.each([
    [100, 'green'],
    [90, 'green'],
    [89.4, 'orange'],
    [75, 'orange'],
    [74.4, 'red'],
    [0, 'red'],
  ])('colours a rate of %s as %s', (value, tone) => {
    expect(bar(value).fill).toHaveAttribute('data-tone', tone)
  })

  it('shows and announces the rounded percentage', () => {
    const { progressbar, fill } = bar(66.6)
    expect(progressbar).toHaveAttribute('aria-valuenow', '67')
    expect(screen.getByText('67%')).toBeInTheDocument()
    expect(fill).toHaveStyle({ width: '67%' })
  })

  it('keeps the value between 0 and 100', () => {
    expect(bar(140).progressbar).toHaveAttribute('aria-valuenow', '100')
  })

  it('stays blue for plain progress', () => {
    expect(bar(10, 'progress').fill).toHaveAttribute('data-tone', 'blue')
  })
})
