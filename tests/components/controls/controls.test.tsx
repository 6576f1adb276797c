import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ControlRuleFormDialog } from '@/features/control-rules/ControlRuleFormDialog'
import { ControlRulesPage as ControlsPage } from '@/features/control-rules/ControlRulesPage'
import { CONTROL_MESSAGES, EMPTY_CONTROL_RULE_FORM, type ControlRuleRow } from '@/features/control-rules/model'

const rule: ControlRuleRow = {
  id: 'rule-1',
  name: 'Comptes inactifs',
  description: 'Inactivité prolongée',
  global: false,
  application_id: 'app-1',
  parameters: { inactivity_threshold: 90 },
  enabled: true,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  application: { name: 'SAP Finance' },
}

const mutation = { mutate: vi.fn(), mutateAsync: vi.fn(), reset: vi.fn(), isPending: false, isError: false, error: null }

vi.mock('@/features/control-rules/api', () => ({
  useLiveControlRules: () => {},
  useControlRulesPage: () => ({ isPending: false, isError: false, data: { rows: [rule], total: 1 } }),
  useApplicationChoices: () => ({ data: [{ id: 'app-1', name: 'SAP Finance' }] }),
  useSaveControlRule: () => mutation,
  useToggleControlRule: () => mutation,
  useDeleteControlRule: () => mutation,
}))

const applications = [{ id: 'app-1', name: 'SAP Finance' }]

function renderForm(onSubmit = vi.fn().mockResolvedValue(undefined)) {
  render(<ControlRuleFormDialog editing={false} initialValues={EMPTY_CONTROL_RULE_FORM} applications={applications} onSubmit={onSubmit} onClose={vi.fn()} />)
  return onSubmit
}

async function setParameters(user: ReturnType<typeof userEvent.setup>, text: string) {
  const field = screen.getByLabelText(/Paramètres/)
  await user.clear(field)
  // '{' and '[' are key descriptors for userEvent.type; paste the text instead.
  await user.click(field)
  await user.paste(text)
}

describe('ControlsPage', () => {
  it('shows scope, application, formatted parameters and status, and toggles a rule', async () => {
    const user = userEvent.setup()
    render(<ControlsPage title="Contrôles" />)
    const row = screen.getByRole('row', { name: /Comptes inactifs/ })
    expect(within(row).getByText('Application')).toBeInTheDocument()
    expect(within(row).getByText('SAP Finance')).toBeInTheDocument()
    expect(within(row).getByText('Active')).toBeInTheDocument()
    expect(row.querySelector('pre')?.textContent).toBe('{\n  "inactivity_threshold": 90\n}')
    expect(screen.getByRole('status')).toHaveTextContent('1–1 sur 1 règle de contrôle')
    await user.click(within(row).getByRole('button', { name: 'Désactiver Comptes inactifs' }))
    expect(mutation.mutate).toHaveBeenCalledWith({ id: 'rule-1', enabled: false })
  })
})

describe('ControlRuleFormDialog', () => {
  it('starts global and enabled, and requires a name', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    expect(screen.getByLabelText(/Règle globale/)).toBeChecked()
    expect(screen.getByLabelText('Règle active')).toBeChecked()
    expect(screen.queryByLabelText(/^Application/)).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(screen.getByText(CONTROL_MESSAGES.nameRequired)).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('requires an application for a rule that is not global', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/^Nom/), 'Règle SAP')
    await user.click(screen.getByLabelText(/Règle globale/))
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(screen.getByText("L'application est obligatoire pour une règle non globale.")).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
    await user.selectOptions(screen.getByLabelText(/^Application/), 'app-1')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ global: false, application_id: 'app-1' }))
  })

  it('shows the French message for invalid JSON inside the dialog, without an alert box from the browser', async () => {
    const user = userEvent.setup()
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined)
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/^Nom/), 'Règle')
    await setParameters(user, '{pas du json')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(within(screen.getByRole('dialog')).getByText('Paramètres JSON invalides')).toBeInTheDocument()
    expect(alert).not.toHaveBeenCalled()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('refuses JSON that is not an object', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/^Nom/), 'Règle')
    await setParameters(user, '[1, 2]')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(screen.getByText(CONTROL_MESSAGES.notObject)).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('refuses an inactivity threshold that is not a positive number', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/^Nom/), 'Règle')
    await setParameters(user, '{"inactivity_threshold": -3}')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(screen.getByText(CONTROL_MESSAGES.invalidThreshold)).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('sends a global rule with application_id null and the parsed parameters', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/^Nom/), ' Inactivité ')
    await setParameters(user, '{"inactivity_threshold": 90}')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Inactivité',
      description: '',
      global: true,
      application_id: null,
      parameters: { inactivity_threshold: 90 },
      enabled: true,
    })
  })
})
