import { useState } from 'react'
import { Download } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { countText } from '@/domain/plural'
import { downloadFile, startExportBuilder } from './excel-build'
import { STAGE_FILES, STAGE_FILE_LABELS, type StageFile } from '@/domain/stage-files'
import { exportCounts, exportFileName, type Campaign } from './model'

const COUNT_LABELS: Record<StageFile, string> = {
  manager: 'En attente',
  bpo_metier: 'Validés par le manager',
  bpo_groupe: 'Validés par le BPO Métier',
}

const BUTTON_LABELS: Record<StageFile, string> = {
  manager: 'Fichier Manager',
  bpo_metier: 'Fichier BPO Métier',
  bpo_groupe: 'Fichier BPO Groupe',
}

/** SPEC §2's Excel dialog: three counts, three files, xlsx loaded only when a download starts. */
export function ExportDialog({ campaign, onClose }: { campaign: Campaign | null; onClose: () => void }) {
  const [running, setRunning] = useState<StageFile | null>(null)
  const [fetched, setFetched] = useState(0)
  const [error, setError] = useState<string | null>(null)
  const counts = campaign ? exportCounts(campaign) : null

  const download = async (file: StageFile) => {
    if (!campaign) return
    setRunning(file)
    setFetched(0)
    setError(null)
    const builder = startExportBuilder()
    try {
      const today = new Date()
      const bytes = await builder.exportFile({ campaignId: campaign.id, file, campaignName: campaign.name, deadline: campaign.endDate }, setFetched)
      downloadFile(bytes, exportFileName(file, campaign.name, today))
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : null)
    } finally {
      builder.dispose()
      setRunning(null)
    }
  }

  return (
    <Dialog open={campaign !== null} onClose={onClose} title="Export Excel" description={campaign?.name} size="md">
      {campaign && counts && (
        <div className="space-y-4">
          <dl className="grid grid-cols-3 gap-3 text-center">
            {STAGE_FILES.map((file) => (
              <div key={file} className="rounded-md bg-gray-50 p-3">
                <dt className="text-xs text-gray-600">{COUNT_LABELS[file]}</dt>
                <dd className="text-2xl font-semibold text-gray-900" data-testid={`export-count-${file}`}>
                  {counts[file]}
                </dd>
              </div>
            ))}
          </dl>
          <div className="flex flex-col gap-2">
            {STAGE_FILES.map((file) => (
              <Button
                key={file}
                variant="outline"
                leftIcon={<Download aria-hidden="true" className="h-4 w-4" />}
                disabled={counts[file] === 0 || (running !== null && running !== file)}
                loading={running === file}
                onClick={() => void download(file)}
              >
                {BUTTON_LABELS[file]}
              </Button>
            ))}
          </div>
          {running && <p className="text-sm text-gray-600" role="status">{`Préparation du fichier… ${countText(fetched, 'ligne lue', 'lignes lues')}`}</p>}
          {error && <ErrorBox message={error} />}
          <div className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
            <p className="font-medium">Instructions</p>
            <ol className="mt-1 list-decimal pl-5">
              <li>Envoyez d'abord le fichier {STAGE_FILE_LABELS.manager} aux managers (droits en attente).</li>
              <li>Puis le fichier {STAGE_FILE_LABELS.bpo_metier} (droits validés par le manager).</li>
              <li>Enfin le fichier {STAGE_FILE_LABELS.bpo_groupe} (droits validés par le BPO Métier).</li>
            </ol>
          </div>
        </div>
      )}
    </Dialog>
  )
}
