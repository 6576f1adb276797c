import { useState } from 'react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate, formatDateTime } from '@/lib/dates'
import { countText } from '@/domain/plural'
import { useDelegatedQueue, useMyDelegations, useMySignoffs, useRevokeDelegation, useSignOffStage } from '../../api'
import {
  onBehalfText,
  SIGN_OFF_STATEMENT,
  signoffProgressText,
  signoffState,
  targetOfDelegatedItem,
  type StageSignoff,
} from '../../delegation-model'
import { decisionLabels, type DecisionInput, type DecisionTarget } from '../../model'
import { ValidationDialog } from '../ValidationDialog'
import { DelegateDialog } from './DelegateDialog'

const stageNames: Record<StageSignoff['stage'], string> = {
  manager: 'Manager',
  bpo_metier: 'BPO Métier',
  bpo_groupe: 'BPO Groupe',
  ra: "Responsable d'application",
}

/** The rights the caller decides for someone else, each saying for whom. */
function DelegatedQueue({ decide }: { decide?: (input: DecisionInput) => Promise<void> }) {
  const queue = useDelegatedQueue()
  const [target, setTarget] = useState<DecisionTarget | null>(null)
  const items = queue.data ?? []
  if (queue.error) return <ErrorBox message={queue.error.message} />
  if (items.length === 0) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle>Droits qui me sont confiés</CardTitle>
        <CardDescription>Vous décidez pour le compte du relecteur qui vous les a délégués, ou comme relecteur de secours.</CardDescription>
      </CardHeader>
      <CardContent>
        <Table caption="Droits qui me sont confiés">
          <TableHead>
            <tr>
              <TableHeaderCell>Personne</TableHeaderCell>
              <TableHeaderCell>Application et rôle</TableHeaderCell>
              <TableHeaderCell>Campagne</TableHeaderCell>
              <TableHeaderCell>Pour le compte de</TableHeaderCell>
              <TableHeaderCell>Statut</TableHeaderCell>
              <TableHeaderCell>Actions</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {items.map((item) => {
              const decision = targetOfDelegatedItem(item)
              const labels = decisionLabels(decision)
              const what = `${item.role_name} de ${item.holder_name} sur ${item.application_name}`
              return (
                <TableRow key={item.right_id}>
                  <TableCell>
                    <div>{item.holder_name}</div>
                    <div className="text-xs text-gray-500">{item.holder_email}</div>
                  </TableCell>
                  <TableCell>
                    <div>{item.application_name}</div>
                    <div className="text-xs text-gray-500">{item.role_name}</div>
                  </TableCell>
                  <TableCell>{item.campaign_name}</TableCell>
                  <TableCell>
                    <div>{onBehalfText(item)}</div>
                    {item.ends_on && <div className="text-xs text-gray-500">Jusqu'au {formatDate(item.ends_on)}</div>}
                  </TableCell>
                  <TableCell>
                    <StatusBadge status={item.status} />
                  </TableCell>
                  <TableCell>
                    <div className="flex gap-2">
                      {item.refuse_status && (
                        <Button size="sm" variant="danger" aria-label={`${labels.refuse} ${what}`} onClick={() => setTarget(decision)}>
                          {labels.refuse}
                        </Button>
                      )}
                      {item.approve_status && (
                        <Button size="sm" variant="success" aria-label={`${labels.approve} ${what}`} onClick={() => setTarget(decision)}>
                          {labels.approve}
                        </Button>
                      )}
                    </div>
                  </TableCell>
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
        <ValidationDialog target={target} onClose={() => setTarget(null)} decide={decide} />
      </CardContent>
    </Card>
  )
}

/** What a reviewer attests by signing a stage off: the campaign, the stage, and the rights decided by them or for them. */
function attestationText(signoff: StageSignoff): string {
  const rights =
    signoff.items_count === 1 ? 'le droit qui vous était confié' : `les ${countText(signoff.items_count, 'droit qui vous était confié', 'droits qui vous étaient confiés')}`
  return `Vous attestez avoir revu ${rights} à l’étape ${stageNames[signoff.stage]} de la campagne « ${signoff.campaign_name} », chacun décidé par vous ou, par délégation, pour votre compte.`
}

/** Each campaign stage the caller reviews: what is left, and the certificate once nothing is. */
function SignoffList({ signoffs }: { signoffs: readonly StageSignoff[] }) {
  const signOff = useSignOffStage()
  const [error, setError] = useState<string | null>(null)
  // The stage whose attestation is being confirmed: the signature is evidence, so it is never one click away.
  const [confirming, setConfirming] = useState<StageSignoff | null>(null)
  const sign = async (signoff: StageSignoff) => {
    setError(null)
    try {
      await signOff.mutateAsync({ campaignId: signoff.campaign_id, stage: signoff.stage })
      setConfirming(null)
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Une erreur est survenue')
    }
  }
  return (
    <ul className="space-y-3">
      {error && !confirming && <ErrorBox message={error} />}
      {signoffs.map((signoff) => {
        const state = signoffState(signoff)
        return (
          <li key={`${signoff.campaign_id}-${signoff.stage}`} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-gray-200 p-3 text-sm">
            <div>
              <div className="font-medium text-gray-900">
                {signoff.campaign_name} — {stageNames[signoff.stage]}
              </div>
              <div className="text-gray-600">{signoffProgressText(signoff)}</div>
            </div>
            {state === 'signed' ? (
              <Badge tone="green">Signé le {formatDateTime(signoff.signed_at)}</Badge>
            ) : (
              <Button
                size="sm"
                variant="success"
                disabled={state !== 'ready' || signOff.isPending}
                // The statement wraps on a phone: the button grows with it rather than letting it spill out.
                className="h-auto min-h-8 py-1.5 text-left"
                aria-label={`${SIGN_OFF_STATEMENT} — ${signoff.campaign_name}`}
                onClick={() => {
                  setError(null)
                  setConfirming(signoff)
                }}
              >
                {SIGN_OFF_STATEMENT}
              </Button>
            )}
          </li>
        )
      })}
      {confirming && (
        <ConfirmDialog
          open
          title="Attester la revue"
          message={attestationText(confirming)}
          details={
            <p className="mt-2 text-sm text-gray-600">
              L’attestation est horodatée, enregistrée avec votre adresse IP et versée au rapport de campagne ; elle ne peut pas être retirée.
            </p>
          }
          confirmLabel="Signer l’attestation"
          variant="success"
          pending={signOff.isPending}
          error={error}
          onConfirm={() => void sign(confirming)}
          onClose={() => setConfirming(null)}
        />
      )}
    </ul>
  )
}

/** The delegations the caller gave or received, the ones in force revocable by the one who gave them. */
function DelegationList({ userId }: { userId: string }) {
  const delegations = useMyDelegations()
  const revoke = useRevokeDelegation()
  const rows = delegations.data ?? []
  return (
    <Table caption="Mes délégations">
      <TableHead>
        <tr>
          <TableHeaderCell>Campagne</TableHeaderCell>
          <TableHeaderCell>De → à</TableHeaderCell>
          <TableHeaderCell>Droits</TableHeaderCell>
          <TableHeaderCell>Motif</TableHeaderCell>
          <TableHeaderCell>Fin</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {rows.length === 0 && <TableEmptyRow colSpan={6} message="Aucune délégation." />}
        {rows.map((row) => (
          <TableRow key={row.id}>
            <TableCell>{row.campaign_name}</TableCell>
            <TableCell>
              {row.delegator_name} → {row.delegate_name}
            </TableCell>
            <TableCell>{row.items_count === null ? 'Tous' : row.items_count}</TableCell>
            <TableCell>{row.reason}</TableCell>
            <TableCell>{row.revoked_at ? `Révoquée le ${formatDate(row.revoked_at)}` : formatDate(row.ends_on)}</TableCell>
            <TableCell>
              {row.in_force && row.delegator_id === userId && (
                <Button size="sm" variant="outline" aria-label={`Révoquer la délégation à ${row.delegate_name}`} loading={revoke.isPending} onClick={() => revoke.mutate(row.id)}>
                  Révoquer
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

interface DelegationPanelProps {
  userId: string
  /** The call that records one decision; the real one by default, a stub in tests. */
  decide?: (input: DecisionInput) => Promise<void>
}

/** Mes revues, beside the queue: rights confided to the caller, delegating theirs, and signing off each stage. */
export function DelegationPanel({ userId, decide }: DelegationPanelProps) {
  const signoffs = useMySignoffs()
  const [delegating, setDelegating] = useState(false)
  const stages = signoffs.data ?? []
  const campaigns = [...new Map(stages.map((signoff) => [signoff.campaign_id, signoff])).values()]
  return (
    <div className="mt-6 space-y-6">
      <DelegatedQueue decide={decide} />
      {signoffs.error && <ErrorBox message={signoffs.error.message} />}
      {stages.length > 0 && (
        <Card>
          <CardHeader className="flex flex-wrap items-start justify-between gap-2">
            <div>
              <CardTitle>Attestation et délégation</CardTitle>
              <CardDescription>Signez chaque campagne quand tous vos droits y sont décidés ; déléguez-les en cas d'absence.</CardDescription>
            </div>
            <Button variant="outline" onClick={() => setDelegating(true)}>
              Déléguer
            </Button>
          </CardHeader>
          <CardContent className="space-y-4">
            <SignoffList signoffs={stages} />
            <DelegationList userId={userId} />
          </CardContent>
        </Card>
      )}
      {delegating && <DelegateDialog campaigns={campaigns} onClose={() => setDelegating(false)} />}
    </div>
  )
}
