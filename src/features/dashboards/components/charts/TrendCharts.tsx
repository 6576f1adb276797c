/**
 * The RSSI dashboard's drawings, the only dashboard code that imports recharts: loaded on demand (React.lazy in
 * RssiTrends.tsx), so that no other page pays for the library. Colours are Tailwind's 700 shades, each over 4.5:1
 * against white (WCAG 1.4.11 asks 3:1 of graphics), blue and orange so that they stay apart for colour-blind readers.
 */
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { formatDate } from '@/lib/dates'
import { pointDateText, STAGE_LABELS, trendAxisLabels, type DecisionDay, type StageCompletion, type TrendPoint } from './model'

const BLUE = '#1d4ed8'
const ORANGE = '#c2410c'
const AXIS = '#4b5563'
const GRID = '#e5e7eb'
const tick = { fill: AXIS, fontSize: 12 }

export function ComplianceTrendChart({ points }: { points: readonly TrendPoint[] }) {
  const shortLabels = trendAxisLabels(points)
  const data = points.map((point, index) => ({
    label: `${point.name} (${pointDateText(point)})`,
    short: shortLabels[index],
    rate: point.validation_rate,
    atRisk: point.at_risk_items,
  }))
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="short" tick={tick} stroke={AXIS} />
        <YAxis yAxisId="rate" domain={[0, 100]} unit=" %" tick={tick} stroke={AXIS} width={56} />
        {/* Headroom above the highest bar, so that a rate's dot is never lost inside it. */}
        <YAxis
          yAxisId="risk"
          orientation="right"
          allowDecimals={false}
          domain={[0, (max: number) => Math.max(4, Math.ceil(max * 1.5))]}
          tick={tick}
          stroke={AXIS}
          width={40}
        />
        <Tooltip labelFormatter={(_, payload) => String(payload[0]?.payload?.label ?? '')} />
        <Legend wrapperStyle={{ color: AXIS, fontSize: 12 }} />
        <Bar yAxisId="risk" dataKey="atRisk" name="Comptes à risque" fill={ORANGE} maxBarSize={32} isAnimationActive={false} />
        <Line
          yAxisId="rate"
          dataKey="rate"
          name="Taux de conformité (%)"
          stroke={BLUE}
          strokeWidth={2}
          dot={{ r: 5, fill: BLUE, stroke: '#ffffff', strokeWidth: 2 }}
          connectNulls
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  )
}

export function DecisionsPerDayChart({ days }: { days: readonly DecisionDay[] }) {
  const data = days.map((day) => ({ ...day, label: formatDate(day.day).slice(0, 6) }))
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="label" tick={tick} stroke={AXIS} minTickGap={16} />
        <YAxis allowDecimals={false} tick={tick} stroke={AXIS} width={40} />
        <Tooltip labelFormatter={(_, payload) => formatDate(String(payload[0]?.payload?.day ?? ''))} />
        <Legend wrapperStyle={{ color: AXIS, fontSize: 12 }} />
        <Bar dataKey="approved" name="Validations" stackId="day" fill={BLUE} maxBarSize={24} isAnimationActive={false} />
        <Bar dataKey="refused" name="Refus" stackId="day" fill={ORANGE} maxBarSize={24} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  )
}

export function StageCompletionChart({ stages }: { stages: readonly StageCompletion[] }) {
  const data = stages.map((stage) => ({ label: STAGE_LABELS[stage.stage], decided: stage.decided, waiting: stage.waiting }))
  return (
    <ResponsiveContainer width="100%" height="100%">
      {/* Horizontal bars: the stage names stay readable on a phone's width. */}
      <BarChart data={data} layout="vertical" accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid stroke={GRID} horizontal={false} />
        <XAxis type="number" allowDecimals={false} tick={tick} stroke={AXIS} />
        <YAxis type="category" dataKey="label" tick={tick} stroke={AXIS} width={112} interval={0} />
        <Tooltip />
        <Legend wrapperStyle={{ color: AXIS, fontSize: 12 }} />
        <Bar dataKey="decided" name="Décidés" stackId="stage" fill={BLUE} maxBarSize={32} isAnimationActive={false} />
        <Bar dataKey="waiting" name="En attente" stackId="stage" fill={ORANGE} maxBarSize={32} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  )
}
