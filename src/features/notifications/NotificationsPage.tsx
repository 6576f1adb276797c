import { Send } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDateTime } from '@/lib/dates'
import { countText } from '@/domain/plural'
import { useOutbox, useSendNow } from './api'
import { KIND_LABELS, OUTBOX_LIST_LIMIT, STATUS_LABELS, sendNowText } from './model'

/**
 * Notifications (admin and rssi): the e-mails waiting in the outbox or given up, with their tries and last error, and
 * "Envoyer maintenant", which sends them at once instead of at the next scheduled pass (every 10 minutes).
 */
export function NotificationsPage({ title }: { title: string }) {
  const outbox = useOutbox()
  const send = useSendNow()
  const summary = outbox.data

  return (
    <div>
      <PageHeader
        title={title}
        description="Les e-mails envoyés par Recertif (démarrage des campagnes, étapes, rappels, escalades) partent toutes les 10 minutes ; un envoi en échec est réessayé, puis abandonné après 8 tentatives."
        actions={
          <Button leftIcon={<Send aria-hidden="true" className="h-4 w-4" />} loading={send.isPending} onClick={() => send.mutate()}>
            Envoyer maintenant
          </Button>
        }
      />
      {send.isError && <ErrorBox message={send.error.message} className="mb-4" />}
      {send.isSuccess && (
        <p role="status" className="mb-4 rounded-md bg-green-50 p-3 text-sm text-green-800">
          {sendNowText(send.data)}
        </p>
      )}
      {outbox.isError && <ErrorBox message={outbox.error.message} className="mb-4" />}
      {summary && (
        <p className="mb-4 text-sm text-gray-700">
          {countText(summary.queued, 'message en attente', 'messages en attente')}, {countText(summary.sending, "en cours d'envoi", "en cours d'envoi")},{' '}
          {countText(summary.failed, 'message abandonné', 'messages abandonnés')}.
          {summary.queued + summary.sending + summary.failed > OUTBOX_LIST_LIMIT && ` Les ${OUTBOX_LIST_LIMIT} plus récents sont listés.`}
        </p>
      )}
      <Card>
        {outbox.isPending ? (
          <div className="flex justify-center p-8">
            <Spinner />
          </div>
        ) : (
          <Table caption="Notifications non envoyées">
            <TableHead>
              <TableRow>
                <TableHeaderCell>Destinataire</TableHeaderCell>
                <TableHeaderCell>Message</TableHeaderCell>
                <TableHeaderCell>Campagne</TableHeaderCell>
                <TableHeaderCell>Statut</TableHeaderCell>
                <TableHeaderCell>Tentatives</TableHeaderCell>
                <TableHeaderCell>Prochain essai</TableHeaderCell>
                <TableHeaderCell>Dernière erreur</TableHeaderCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(summary?.rows ?? []).length === 0 ? (
                <TableEmptyRow colSpan={7} message="Aucune notification en attente ni en échec." />
              ) : (
                summary?.rows.map((row) => (
                  <TableRow key={row.id}>
                    <TableCell>{row.recipient_email}</TableCell>
                    <TableCell>{KIND_LABELS[row.kind]}</TableCell>
                    <TableCell>{row.payload?.campaign_name ?? '-'}</TableCell>
                    <TableCell>
                      <Badge tone={STATUS_LABELS[row.status].tone}>{STATUS_LABELS[row.status].label}</Badge>
                    </TableCell>
                    <TableCell>{row.attempts}</TableCell>
                    <TableCell>{row.status === 'failed' ? '-' : formatDateTime(row.next_attempt_at)}</TableCell>
                    <TableCell className="max-w-xs break-words">{row.last_error ?? '-'}</TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        )}
      </Card>
    </div>
  )
}
