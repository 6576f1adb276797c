import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ControlRuleFormDialog } from '@/features/control-rules/ControlRuleFormDialog'
import { ControlRulesPage as ControlsPage } from '@/features/control-rules/ControlRulesPage'
import { CONTROL_MESSAGES, controlRuleToForm, EMPTY_CONTROL_RULE_FORM, type ControlRuleRow } from '@/features/control-rules/model'
import type { JsonObject, RuleReach } from '@/features/control-rules/parameters'

const rule: ControlRuleRow = {
  id: 'rule-1',
  name: 'Séparation SAP',
  description: 'Saisie et approbation',
  global: false,
  application_id: 'app-1',
  parameters: { incompatible_roles: ['Approbateur', 'Comptable'] },
  enabled: true,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  application: { name: 'SAP Finance' },
}

const mutation = { mutate: vi.fn(), mutateAsync: vi.fn(), reset: vi.fn(), isPending: false, isError: false, error: null }
const rolesByScope: Record<string, string[]> = { 'app-1': ['Approbateur', 'Comptable', 'Lecteur'], 'app-2': ['Admin'], all: ['Admin', 'Approbateur', 'Comptable', 'Lecteur'] }
/** The drafts the form asked to count, in order: each is what the server would be sent. */
const reachAsked: { parameters: JsonObject; applicationId: string | null }[] = []

/** A stand-in for the server's count: the number of roles picked, so that each draft gives a different answer. */
function reachOf(parameters: JsonObject): RuleReach {
  const reach: RuleReach = {}
  if (Array.isArray(parameters.incompatible_roles)) reach.incompatible_roles = parameters.incompatible_roles.length
  if (typeof parameters.inactivity_threshold === 'number') reach.inactivity_threshold = 7
  return reach
}

vi.mock('@/features/control-rules/api', () => ({
  useLiveControlRules: () => {},
  useControlRulesPage: () => ({ isPending: false, isError: false, data: { rows: [rule], total: 1 } }),
  useRulesReach: () => ({ data: { 'rule-1': { incompatible_roles: 3 } }, isError: false }),
  useApplicationChoices: () => ({ data: applications }),
  useRoleChoices: (applicationId: string | null | undefined) => ({
    data: applicationId === undefined ? undefined : rolesByScope[applicationId ?? 'all'],
    error: null,
  }),
  useRuleReach: (draft: { parameters: JsonObject; applicationId: string | null } | null) => {
    if (draft && JSON.stringify(reachAsked.at(-1)) !== JSON.stringify(draft)) reachAsked.push(draft)
    return { data: draft ? reachOf(draft.parameters) : undefined, isFetching: false, error: null }
  },
  useSaveControlRule: () => mutation,
  useToggleControlRule: () => mutation,
  useDeleteControlRule: () => mutation,
}))

const applications = [
  { id: 'app-1', name: 'SAP Finance' },
  { id: 'app-2', name: 'GitLab' },
]

beforeEach(() => {
  reachAsked.length = 0
})

function renderForm(initialValues = EMPTY_CONTROL_RULE_FORM, onSubmit = vi.fn().mockResolvedValue(undefined)) {
  render(<ControlRuleFormDialog editing={initialValues !== EMPTY_CONTROL_RULE_FORM} initialValues={initialValues} applications={applications} onSubmit={onSubmit} onClose={vi.fn()} />)
  return onSubmit
}

const preview = () => screen.getByRole('region', { name: 'La règle en clair' })

describe('ControlsPage', () => {
  it('shows each rule in words with how many it concerns today, and toggles a rule', async () => {
    const user = userEvent.setup()
    render(<ControlsPage title="Contrôles" />)
    const row = screen.getByRole('row', { name: /Séparation SAP/ })
    expect(within(row).getByText('Une même personne ne peut pas détenir à la fois SAP Finance — Approbateur et SAP Finance — Comptable.')).toBeInTheDocument()
    expect(within(row).getByText("Concerne aujourd'hui 3 personnes")).toBeInTheDocument()
    expect(within(row).queryByText(/incompatible_roles/)).not.toBeInTheDocument()
    expect(within(row).getByText('Active')).toBeInTheDocument()
    await user.click(within(row).getByRole('button', { name: 'Désactiver Séparation SAP' }))
    expect(mutation.mutate).toHaveBeenCalledWith({ id: 'rule-1', enabled: false })
  })
})

describe('ControlRuleFormDialog', () => {
  it('picks an application and two of its roles from lists, says the rule in words and counts who holds both today', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    expect(screen.queryByRole('textbox', { name: /JSON|Paramètres/ })).not.toBeInTheDocument()
    await user.type(screen.getByLabelText(/^Nom/), 'Séparation des tâches')
    await user.click(screen.getByLabelText(/Règle globale/))
    expect(screen.getByLabelText('Rôle 1')).toBeDisabled()
    await user.selectOptions(screen.getByLabelText(/^Application/), 'app-1')
    expect(within(screen.getByLabelText('Rôle 1')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choisir un rôle', 'Approbateur', 'Comptable', 'Lecteur'])
    await user.selectOptions(screen.getByLabelText('Rôle 1'), 'Approbateur')
    expect(within(preview()).getByText(/la règle se lira ici/)).toBeInTheDocument()
    await user.selectOptions(screen.getByLabelText('Rôle 2'), 'Comptable')
    expect(within(preview()).getByText('Une même personne ne peut pas détenir à la fois SAP Finance — Approbateur et SAP Finance — Comptable.')).toBeInTheDocument()
    expect(await within(preview()).findByText("Concerne aujourd'hui 2 personnes")).toBeInTheDocument()
    // A third role: the words and the count follow.
    await user.click(screen.getByRole('button', { name: 'Ajouter un rôle' }))
    await user.selectOptions(screen.getByLabelText('Rôle 3'), 'Lecteur')
    expect(within(preview()).getByText(/plus d'un de ces rôles : SAP Finance — Approbateur, SAP Finance — Comptable et SAP Finance — Lecteur\.$/)).toBeInTheDocument()
    expect(await within(preview()).findByText("Concerne aujourd'hui 3 personnes")).toBeInTheDocument()
    expect(reachAsked.at(-1)).toEqual({ parameters: { incompatible_roles: ['Approbateur', 'Comptable', 'Lecteur'] }, applicationId: 'app-1' })
    await user.click(screen.getByRole('button', { name: 'Retirer le rôle 3' }))
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Séparation des tâches',
      description: '',
      global: false,
      application_id: 'app-1',
      parameters: { incompatible_roles: ['Approbateur', 'Comptable'] },
      enabled: true,
    })
  })

  it('asks for the count once the picking pauses, not at each change', async () => {
    const user = userEvent.setup()
    renderForm()
    await user.selectOptions(screen.getByLabelText('Rôle 1'), 'Admin')
    await user.selectOptions(screen.getByLabelText('Rôle 2'), 'Lecteur')
    await user.selectOptions(screen.getByLabelText('Rôle 2'), 'Comptable')
    expect(await within(preview()).findByText("Concerne aujourd'hui 2 personnes")).toBeInTheDocument()
    expect(reachAsked).toEqual([{ parameters: { incompatible_roles: ['Admin', 'Comptable'] }, applicationId: null }])
    expect(within(preview()).getByText(/Admin et Comptable, sur une même application ou sur des applications différentes\./)).toBeInTheDocument()
  })

  it.each([
    ['a missing name', async () => {}, CONTROL_MESSAGES.nameRequired],
    ['fewer than two roles', async (user: ReturnType<typeof userEvent.setup>) => user.selectOptions(screen.getByLabelText('Rôle 1'), 'Admin'), CONTROL_MESSAGES.tooFewRoles],
    [
      'the same role twice',
      async (user: ReturnType<typeof userEvent.setup>) => {
        await user.selectOptions(screen.getByLabelText('Rôle 1'), 'Admin')
        await user.selectOptions(screen.getByLabelText('Rôle 2'), 'Admin')
      },
      CONTROL_MESSAGES.duplicateRole('Admin'),
    ],
    ['nothing to control', async (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByLabelText(/Rôles incompatibles/)), CONTROL_MESSAGES.nothingChecked],
  ])('refuses %s with a French message and sends nothing', async (label, fill, message) => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    if (label !== 'a missing name') await user.type(screen.getByLabelText(/^Nom/), 'Règle')
    await fill(user)
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(within(screen.getByRole('dialog')).getByText(message)).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('requires an application for a rule that is not global', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/^Nom/), 'Règle SAP')
    await user.click(screen.getByLabelText(/Règle globale/))
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(screen.getByText(CONTROL_MESSAGES.applicationRequired)).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('builds an inactivity rule from a number of days, with its words and count', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/^Nom/), 'Inactivité')
    await user.click(screen.getByLabelText(/Rôles incompatibles/))
    await user.click(screen.getByLabelText(/Droits inutilisés/))
    const days = screen.getByLabelText(/Seuil d’inactivité/)
    await user.clear(days)
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(screen.getByText(CONTROL_MESSAGES.invalidThreshold)).toBeInTheDocument()
    await user.type(days, '45')
    expect(within(preview()).getByText('Tout droit sur toute application non utilisé depuis plus de 45 jours, ou jamais utilisé, est signalé.')).toBeInTheDocument()
    expect(await within(preview()).findByText("Concerne aujourd'hui 7 droits inutilisés")).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ global: true, application_id: null, parameters: { inactivity_threshold: 45 } }))
  })

  it('loads a saved rule into the pickers, keeps a role no right bears any more, and what it cannot edit, explained', async () => {
    const user = userEvent.setup()
    const saved = { ...rule, parameters: { incompatible_roles: ['Approbateur', 'Ancien rôle'], max_accounts: 3 } }
    const onSubmit = renderForm(controlRuleToForm(saved))
    expect(screen.getByLabelText(/^Application/)).toHaveValue('app-1')
    expect(screen.getByLabelText('Rôle 1')).toHaveValue('Approbateur')
    expect(screen.getByLabelText('Rôle 2')).toHaveValue('Ancien rôle')
    expect(within(screen.getByLabelText('Rôle 2')).getByRole('option', { selected: true })).toHaveTextContent('Ancien rôle (aucun droit aujourd’hui)')
    expect(screen.getByRole('note')).toHaveTextContent("un paramètre que ce formulaire ne sait pas modifier (max_accounts) : il est conservé tel quel")
    expect(within(preview()).getByText('Paramètres non évalués : max_accounts.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ parameters: { max_accounts: 3, incompatible_roles: ['Approbateur', 'Ancien rôle'] } }))
  })

  it('shows the database’s refusal in the dialog and stays open', async () => {
    const user = userEvent.setup()
    const refusal = 'Un même rôle ne peut figurer qu’une fois parmi les rôles incompatibles.'
    renderForm(controlRuleToForm(rule), vi.fn().mockRejectedValue(new Error(refusal)))
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(await within(screen.getByRole('dialog')).findByText(refusal)).toBeInTheDocument()
  })
})
