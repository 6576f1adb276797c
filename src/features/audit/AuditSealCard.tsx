import { RefreshCw, ShieldAlert, ShieldCheck } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent } from '@/components/ui/Card'
import { formatDateTime } from '@/lib/dates'
import { useAuditSeal } from './api'
import { auditSealText } from './model'

/** The seal of the audit trail (its hash chain), checked on the server when the page opens and on request. */
export function AuditSealCard() {
  const seal = useAuditSeal()
  const broken = seal.data !== undefined && !seal.data.intact
  const Icon = broken ? ShieldAlert : ShieldCheck

  return (
    <Card className={broken ? 'mb-4 border-red-300' : 'mb-4'} data-testid="audit-seal">
      <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 gap-3">
          <Icon aria-hidden="true" className={broken ? 'mt-0.5 h-5 w-5 shrink-0 text-red-700' : 'mt-0.5 h-5 w-5 shrink-0 text-green-700'} />
          <div className="min-w-0" aria-live="polite">
            <h2 className="text-sm font-semibold text-gray-900">
              {seal.isPending || seal.isFetching ? 'Vérification du sceau…' : seal.isError ? 'Sceau non vérifié' : broken ? 'Journal altéré' : 'Journal scellé'}
            </h2>
            {seal.isError ? (
              <p className="text-sm text-red-700">{seal.error.message}</p>
            ) : seal.data ? (
              <>
                <p className={broken ? 'text-sm text-red-700' : 'text-sm text-gray-700'}>{auditSealText(seal.data)}</p>
                {seal.data.head_hash && (
                  <p className="mt-1 text-xs text-gray-600">
                    Empreinte de tête (SHA-256, entrée n° {seal.data.head_id}) :{' '}
                    <code className="break-all font-mono text-gray-800" data-testid="audit-seal-head">
                      {seal.data.head_hash}
                    </code>
                  </p>
                )}
                <p className="mt-1 text-xs text-gray-600">Vérifié le {formatDateTime(new Date(seal.dataUpdatedAt))}</p>
              </>
            ) : null}
          </div>
        </div>
        <Button
          variant="outline"
          size="sm"
          className="shrink-0"
          leftIcon={<RefreshCw aria-hidden="true" className="h-4 w-4" />}
          loading={seal.isFetching}
          onClick={() => void seal.refetch()}
        >
          Vérifier à nouveau
        </Button>
      </CardContent>
    </Card>
  )
}
