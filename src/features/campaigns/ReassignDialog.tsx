import { useState, type FormEvent, type ReactNode } from 'react'
import { AlertTriangle, UserCog } from 'lucide-react'
import { format } from 'date-fns'
import { Button } from '@/components/ui/Button'
import { Combobox, type ComboboxOption } from '@/components/ui/Combobox'
import { DateInput } from '@/components/ui/DateInput'
import { Dialog } from '@/components/ui/Dialog'
import { type MenuItem } from '@/components/ui/Menu'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { SelectField } from '@/components/ui/SelectField'
import { cardTable, Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { TextAreaField } from '@/components/ui/TextAreaField'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/dates'
import { useCampaignSignoffs, useFallbackReviewers, useReassignItems, useReviewerGaps, useReviewerSearch, useSetFallbackReviewers } from './api'
import type { Campaign } from './model'
import {
  reassignableReviewers,
  reviewerGapText,
  signoffStageLabels,
  signoffText,
  upcomingCount,
  type CampaignSignoff,
  type ReviewerChoice,
} from './reviewers-model'

const message = (caught: unknown) => (caught instanceof Error ? caught.message : 'Une erreur est survenue')

/** A person found on the server as one types. */
function PersonPicker({ label, value, onChange }: { label: string; value: ComboboxOption | null; onChange: (option: ComboboxOption | null) => void }) {
  const [search, setSearch] = useState('')
  const found = useReviewerSearch(search)
  return (
    <Combobox
      label={label}
      noneLabel="Rechercher une personne (nom ou e-mail)"
      value={value}
      options={found.data?.map((person) => ({ id: person.id, label: `${person.full_name} (${person.email})` }))}
      onSearch={setSearch}
      onChange={onChange}
    />
  )
}

// Below the md breakpoint each reviewer is a card, their figures led by the column's name, so that « À décider » is in
// view on a phone without scrolling the table sideways.
const figure = cardTable.labelled

function SignoffTable({ rows }: { rows: readonly CampaignSignoff[] }) {
  return (
    <Table caption="Signatures des relecteurs" className={cardTable.table}>
      <TableHead className={cardTable.head}>
        <tr>
          <TableHeaderCell>Étape</TableHeaderCell>
          <TableHeaderCell>Relecteur</TableHeaderCell>
          <TableHeaderCell>Droits</TableHeaderCell>
          <TableHeaderCell>À décider</TableHeaderCell>
          <TableHeaderCell>À venir</TableHeaderCell>
          <TableHeaderCell>Signature</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody className={cardTable.body}>
        {rows.length === 0 && <TableEmptyRow colSpan={6} message="Aucun relecteur dans cette campagne." />}
        {rows.map((row) => (
          <TableRow key={`${row.stage}-${row.reviewer_id ?? 'aucun'}`} className={cardTable.row}>
            <TableCell className="max-md:block max-md:px-0 max-md:py-0 max-md:text-xs max-md:text-gray-600">{signoffStageLabels[row.stage]}</TableCell>
            <TableCell className="max-md:block max-md:px-0 max-md:pb-2 max-md:pt-0 max-md:font-medium">
              {row.reviewer_id ? row.reviewer_name : <em>Aucun relecteur désigné</em>}
            </TableCell>
            <TableCell data-label="Droits" className={figure}>
              {row.items_count}
            </TableCell>
            <TableCell data-label="À décider" className={figure}>
              {row.waiting_count}
            </TableCell>
            <TableCell data-label="À venir" className={figure}>
              {upcomingCount(row)}
            </TableCell>
            <TableCell data-label="Signature" className={cn(figure, 'max-md:text-right')}>
              {row.signed_at ? `Signé le ${formatDateTime(row.signed_at)}` : signoffText(row)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

/** The stages of a running campaign where rights wait that nobody may decide, each said in a sentence. */
function ReviewerGapWarnings({ campaignId }: { campaignId: string }) {
  const gaps = useReviewerGaps([campaignId])
  if (gaps.error) return <ErrorBox message={gaps.error.message} />
  const rows = (gaps.data ?? []).filter((gap) => gap.campaign_id === campaignId)
  if (rows.length === 0) return null
  return (
    <div role="alert" className="space-y-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      {rows.map((gap) => (
        <p key={gap.stage} className="flex items-start gap-2">
          <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          <span>{reviewerGapText(gap)}</span>
        </p>
      ))}
    </div>
  )
}

/** The campaign's fallback reviewers: added and removed, then saved as a whole. */
function FallbackReviewers({ campaignId, saved }: { campaignId: string; saved: readonly ReviewerChoice[] }) {
  const save = useSetFallbackReviewers(campaignId)
  const [list, setList] = useState<ReviewerChoice[]>([...saved])
  const [adding, setAdding] = useState<ComboboxOption | null>(null)
  const [error, setError] = useState<string | null>(null)
  const changed = list.map((person) => person.id).join() !== saved.map((person) => person.id).join()
  const add = (option: ComboboxOption | null) => {
    setAdding(null)
    if (option && !list.some((person) => person.id === option.id)) setList([...list, { id: option.id, full_name: option.label, email: '' }])
  }
  const submit = async () => {
    setError(null)
    try {
      await save.mutateAsync({ campaignId, userIds: list.map((person) => person.id) })
    } catch (caught) {
      setError(message(caught))
    }
  }
  return (
    <section aria-labelledby={`fallback-${campaignId}`} className="space-y-2">
      <h3 id={`fallback-${campaignId}`} className="text-sm font-semibold text-gray-900">
        Relecteurs de secours
      </h3>
      <p className="text-sm text-gray-600">
        Ils décident les droits sans relecteur à une étape : titulaire sans manager, application sans BPO Métier, BPO Groupe
        ou RA, ou relecteur titulaire du droit. Personne ne décide un droit qu'il détient.
      </p>
      {error && <ErrorBox message={error} />}
      <ul className="space-y-1 text-sm">
        {list.length === 0 && <li className="text-gray-500">Aucun relecteur de secours.</li>}
        {list.map((person) => (
          <li key={person.id} className="flex items-center justify-between gap-2">
            <span>{person.full_name}</span>
            <Button size="sm" variant="ghost" aria-label={`Retirer ${person.full_name}`} onClick={() => setList(list.filter((other) => other.id !== person.id))}>
              Retirer
            </Button>
          </li>
        ))}
      </ul>
      <PersonPicker label="Ajouter un relecteur de secours" value={adding} onChange={add} />
      <Button size="sm" disabled={!changed} loading={save.isPending} onClick={() => void submit()}>
        Enregistrer les relecteurs de secours
      </Button>
    </section>
  )
}

/** Réattribuer: an absent reviewer's items go to someone else until an end date. */
function ReassignForm({ campaignId, reviewers }: { campaignId: string; reviewers: readonly ReviewerChoice[] }) {
  const reassign = useReassignItems(campaignId)
  const [fromId, setFromId] = useState('')
  const [to, setTo] = useState<ComboboxOption | null>(null)
  const [reason, setReason] = useState('')
  const [endsOn, setEndsOn] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setDone(null)
    const problem = !fromId
      ? 'Choisissez le relecteur absent.'
      : !to
        ? 'Choisissez la personne qui le remplace.'
        : !reason.trim()
          ? 'Indiquez le motif.'
          : !endsOn
            ? 'Indiquez la date de fin (jj/mm/aaaa).'
            : endsOn < format(new Date(), 'yyyy-MM-dd')
              ? "La date de fin doit être aujourd'hui ou plus tard."
              : null
    setError(problem)
    if (problem || !to) return
    try {
      await reassign.mutateAsync({ campaignId, fromId, toId: to.id, reason: reason.trim(), endsOn })
      setDone(`Les revues de ${reviewers.find((reviewer) => reviewer.id === fromId)?.full_name ?? ''} sont confiées à ${to.label}.`)
    } catch (caught) {
      setError(message(caught))
    }
  }
  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-labelledby={`reassign-${campaignId}`} className="space-y-3">
      <h3 id={`reassign-${campaignId}`} className="text-sm font-semibold text-gray-900">
        Réattribuer les revues d'un relecteur absent
      </h3>
      {error && <ErrorBox message={error} />}
      {done && (
        <p role="status" className="text-sm text-green-700">
          {done}
        </p>
      )}
      <SelectField label="Relecteur absent" value={fromId} onChange={(event) => setFromId(event.target.value)}>
        <option value="">Choisir…</option>
        {reviewers.map((reviewer) => (
          <option key={reviewer.id} value={reviewer.id}>
            {reviewer.full_name}
          </option>
        ))}
      </SelectField>
      <PersonPicker label="Confier à" value={to} onChange={setTo} />
      <TextAreaField label="Motif" rows={2} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
      <DateInput label="Date de fin" value={endsOn} onChange={setEndsOn} />
      <Button type="submit" loading={reassign.isPending}>
        Réattribuer
      </Button>
    </form>
  )
}

function ReviewersDialog({ campaign, onClose }: { campaign: Campaign; onClose: () => void }) {
  const signoffs = useCampaignSignoffs(campaign.id)
  const fallback = useFallbackReviewers(campaign.id)
  const rows = signoffs.data ?? []
  return (
    <Dialog open onClose={onClose} size="lg" title={`Relecteurs de ${campaign.name}`} description="Qui a signé, ce que chacun a à décider maintenant ; relecteurs de secours et réattribution.">
      <div className="space-y-6">
        {campaign.status === 'active' && <ReviewerGapWarnings campaignId={campaign.id} />}
        {signoffs.error && <ErrorBox message={signoffs.error.message} />}
        <SignoffTable rows={rows} />
        {fallback.error && <ErrorBox message={fallback.error.message} />}
        {fallback.data && (campaign.status === 'draft' || campaign.status === 'active') && <FallbackReviewers key={fallback.data.map((person) => person.id).join()} campaignId={campaign.id} saved={fallback.data} />}
        {campaign.status === 'active' && <ReassignForm campaignId={campaign.id} reviewers={reassignableReviewers(rows)} />}
      </div>
    </Dialog>
  )
}

/**
 * Relecteurs, an entry of a campaign row's menu (admin and rssi): who signed and who has not, the fallback reviewers,
 * and reassigning an absent reviewer's items. Returns the menu entry and the dialog it opens.
 */
export function useReviewersMenuItem(campaign: Campaign): { item: MenuItem; dialog: ReactNode } {
  const [open, setOpen] = useState(false)
  return {
    item: { label: 'Relecteurs', icon: <UserCog aria-hidden="true" className="h-4 w-4" />, onSelect: () => setOpen(true) },
    dialog: open ? <ReviewersDialog campaign={campaign} onClose={() => setOpen(false)} /> : null,
  }
}
