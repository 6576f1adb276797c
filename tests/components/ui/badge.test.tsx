import { render, screen } from '@testing-library/react'
import { StatusBadge } from '@/components/ui/StatusBadge'

describe('StatusBadge', () => {
  it.each([
    ['pending', 'En attente', 'grey', 'bg-gray-100'],
    ['validated_user', "Validé par l'utilisateur", 'green', 'bg-green-100'],
    ['validated_bpo_groupe', 'Validé par le BPO Groupe', 'green', 'bg-green-100'],
    ['refused_manager', 'Refusé par le manager', 'red', 'bg-red-100'],
    ['refused_bpo_metier', 'Refusé par le BPO Métier', 'red', 'bg-red-100'],
    ['treatment_required', 'Traitement requis', 'amber', 'bg-amber-100'],
    ['treated', 'Traité', 'blue', 'bg-primary-100'],
  ])('shows %s as "%s" in %s', (status, label, tone, colourClass) => {
    render(<StatusBadge status={status} />)
    const badge = screen.getByText(label)
    expect(badge).toHaveAttribute('data-tone', tone)
    expect(badge).toHaveClass(colourClass)
  })
})
