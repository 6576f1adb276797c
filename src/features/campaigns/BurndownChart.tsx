/**
 * A campaign's burndown drawing, the only campaigns code that imports recharts: loaded on demand (React.lazy in
 * CampaignBurndown.tsx). Tailwind's 700 shades, each over 4.5:1 against white; the steady pace is dashed, so that it
 * reads apart from the remaining line without colour.
 */
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { formatDate } from '@/lib/dates'
import type { BurndownDay } from './burndown-model'

const BLUE = '#1d4ed8'
const ORANGE = '#c2410c'
const GRAY = '#4b5563'
const GRID = '#e5e7eb'
const tick = { fill: GRAY, fontSize: 12 }

export default function BurndownChart({ days }: { days: readonly BurndownDay[] }) {
  const data = days.map((day) => ({ ...day, label: formatDate(day.day).slice(0, 6) }))
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 20, bottom: 8, left: 0 }}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="label" tick={tick} stroke={GRAY} minTickGap={16} />
        <YAxis allowDecimals={false} tick={tick} stroke={GRAY} width={48} />
        <Tooltip labelFormatter={(_, payload) => formatDate(String(payload[0]?.payload?.day ?? ''))} />
        <Legend wrapperStyle={{ color: GRAY, fontSize: 12 }} />
        <Bar dataKey="decisions" name="Décisions du jour" fill={BLUE} maxBarSize={16} isAnimationActive={false} />
        <Line dataKey="remaining" name="Droits sans décision" stroke={ORANGE} strokeWidth={2} dot={false} isAnimationActive={false} />
        <Line dataKey="ideal" name="Rythme régulier" stroke={GRAY} strokeDasharray="6 4" strokeWidth={2} dot={false} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  )
}
