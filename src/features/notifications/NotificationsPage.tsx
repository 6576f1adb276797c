import { Send } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Pager } from '@/components/ui/Pager'
import { SearchField } from '@/components/ui/SearchField'
import { Spinner } from '@/components/ui/Spinner'
import { usePagedList } from '@/lib/use-paged-list'
import { useMessagesPage, useOutbox, useSendNow } from './api'
import { MessagesTable } from './MessagesTable'
import { emptyMessage, filterOptions, sendNowText, type MessageFilter, type OutboxSummary } from './model'

function FilterButtons({ summary, filter, onFilter }: { summary: OutboxSummary | undefined; filter: MessageFilter; onFilter: (filter: MessageFilter) => void }) {
  return (
    <div role="group" aria-label="Afficher" className="flex flex-wrap gap-2">
      {filterOptions(summary).map((option) => (
        <Button key={option.filter} size="sm" variant={filter === option.filter ? 'primary' : 'outline'} aria-pressed={filter === option.filter} onClick={() => onFilter(option.filter)}>
          {option.label}
          {option.count !== undefined && ` (${option.count.toLocaleString('fr-FR')})`}
        </Button>
      ))}
    </div>
  )
}

/**
 * Envois d'e-mails (admin and rssi): every e-mail Recertif wrote, newest first and a page at a time, to whom, which,
 * when and how its sending went (tries, last error), filtered by status; and "Envoyer maintenant", which sends what
 * waits or was given up at once instead of at the next scheduled pass (every 10 minutes).
 */
export function NotificationsPage({ title }: { title: string }) {
  const outbox = useOutbox()
  const send = useSendNow()
  const list = usePagedList<'created_at'>({ sort: 'created_at', direction: 'desc' })
  const [filter, setFilter] = useState<MessageFilter>('all')
  const request = { page: list.request.page, size: list.request.size, search: list.request.search, filter }
  const messages = useMessagesPage(request)
  const chooseFilter = (next: MessageFilter) => {
    setFilter(next)
    list.setPage(0)
  }

  return (
    <div>
      <PageHeader
        title={title}
        description="Les e-mails de Recertif (démarrage des campagnes, étapes, rappels, escalades, délégations, invitations) partent toutes les 10 minutes ; un envoi en échec est réessayé, puis abandonné après 8 tentatives."
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
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <FilterButtons summary={outbox.data} filter={filter} onFilter={chooseFilter} />
        <SearchField label="Rechercher un destinataire" help="Adresse e-mail" value={list.searchText} onChange={list.setSearchText} className="w-full max-w-sm" />
      </div>
      {messages.isError && <ErrorBox message={messages.error.message} className="mb-4" />}
      <Card aria-busy={messages.isFetching || undefined}>
        {messages.isPending ? (
          <div className="flex justify-center p-8">
            <Spinner />
          </div>
        ) : (
          <MessagesTable rows={messages.data?.rows ?? []} emptyMessage={emptyMessage(filter, list.request.search)} />
        )}
        <Pager
          page={list.request.page}
          size={list.request.size}
          total={messages.data?.total}
          singular="e-mail"
          several="e-mails"
          onPage={list.setPage}
          onSize={list.setSize}
        />
      </Card>
    </div>
  )
}
