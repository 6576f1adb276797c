import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'

describe('Table', () => {
  // axe's scrollable-region-focusable: a table wider than a phone scrolls sideways, which a keyboard
  // user can only do once the scrolling wrapper has focus.
  it('sits in a focusable region named after its caption, reached by Tab', async () => {
    const user = userEvent.setup()
    render(
      <Table caption="Droits à revoir">
        <TableHead>
          <TableRow>
            <TableHeaderCell>Application</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          <TableRow>
            <TableCell>SAP Finance</TableCell>
          </TableRow>
        </TableBody>
      </Table>,
    )
    const region = screen.getByRole('region', { name: 'Droits à revoir' })
    expect(region).toContainElement(screen.getByRole('table', { name: 'Droits à revoir' }))
    await user.tab()
    expect(region).toHaveFocus()
  })
})
