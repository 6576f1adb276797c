import { trendAxisLabels, type TrendPoint } from '@/features/dashboards/components/charts/model'

const point = (name: string, status: TrendPoint['status'], point_date: string): TrendPoint => ({
  id: name, name, status, point_date, total_items: 1, validated_items: 1, validation_rate: 100,
  reviewed_items: 1, undecided_items: 0, review_rate: 100, at_risk_items: 0,
})

describe('the compliance chart’s axis labels', () => {
  it('names the one running campaign « En cours » and the finished ones by their end date', () => {
    expect(trendAxisLabels([point('Revue annuelle 2025', 'completed', '2025-11-15'), point('Revue T4 2026', 'active', '2026-11-24')]))
      .toEqual(['15 novembre 2025', 'En cours'])
  })

  it('tells two running campaigns apart by their names', () => {
    const labels = trendAxisLabels([point('Revue T4 2026', 'active', '2026-11-24'), point('Revue des administrateurs SAP', 'active', '2026-11-24')])
    expect(labels).toEqual(['Revue T4 2026', 'Revue des adminis…'])
  })

  it('never gives two points the same label', () => {
    const labels = trendAxisLabels([
      point('A', 'completed', '2025-06-30'), point('B', 'completed', '2025-06-30'),
      point('Même nom', 'active', '2026-11-24'), point('Même nom', 'active', '2026-11-24'),
    ])
    expect(new Set(labels).size).toBe(labels.length)
  })
})
