import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useCurrentUser } from '@/auth/auth-context'
import { isAdministrator } from '@/auth/roles'
import { useCampaigns, useDeleteCampaign, useSetCampaignStatus } from './api'
import { CAMPAIGN_LINK_PARAM, isEditable, type Campaign } from './model'

/** The dialog the page shows, if any: one at a time. */
export type CampaignsDialog =
  | { kind: 'form'; campaign: Campaign | null }
  | { kind: 'transition'; campaign: Campaign }
  | { kind: 'delete'; campaign: Campaign }
  | { kind: 'export'; campaign: Campaign }
  | { kind: 'import' }
  | null

/** What a link to a campaign opens: its form for a draft an administrator may edit, otherwise its export. */
function linkedDialog(campaign: Campaign, admin: boolean): CampaignsDialog {
  return admin && isEditable(campaign) ? { kind: 'form', campaign } : { kind: 'export', campaign }
}

/** The list's container, scrolled to the linked row once it is there. */
export function useLinkedRowScroll(linkedId: string | null, linkedShown: boolean) {
  const listRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (linkedShown) listRef.current?.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: 'center' })
  }, [linkedId, linkedShown])
  return listRef
}

/** The campaigns page's data, its open dialog and the campaign a link (?campagne=<id>) points to. */
export function useCampaignsPageState() {
  const admin = isAdministrator(useCurrentUser())
  const campaigns = useCampaigns()
  const setStatus = useSetCampaignStatus()
  const remove = useDeleteCampaign()
  const [chosen, setChosen] = useState<CampaignsDialog>(null)
  const [formKey, setFormKey] = useState(0)
  const [searchParams] = useSearchParams()
  const linkedId = searchParams.get(CAMPAIGN_LINK_PARAM)
  // The linked campaign's dialog opens once; closing it leaves the row highlighted and the link as it was.
  const [dismissedLink, setDismissedLink] = useState<string | null>(null)
  const linked = linkedId ? (campaigns.data?.find((campaign) => campaign.id === linkedId) ?? null) : null
  const dialog = chosen ?? (linked && linkedId !== dismissedLink ? linkedDialog(linked, admin) : null)

  const close = () => {
    setStatus.reset()
    remove.reset()
    setChosen(null)
    setDismissedLink(linkedId)
  }
  const openForm = (campaign: Campaign | null) => {
    setFormKey((key) => key + 1)
    setChosen({ kind: 'form', campaign })
  }
  const openExport = (campaign: Campaign) => {
    // The counts decide which files can be exported: take them as they are now.
    void campaigns.refetch()
    setChosen({ kind: 'export', campaign })
  }

  return {
    admin,
    campaigns,
    setStatus,
    remove,
    dialog,
    formKey,
    linkedId,
    linkedShown: linked !== null,
    linkMissing: linkedId !== null && campaigns.data !== undefined && linked === null,
    open: setChosen,
    openForm,
    openExport,
    close,
    // A dialog shows the campaign as the list has it now, so that live changes reach its counts.
    current: (campaign: Campaign) => campaigns.data?.find((candidate) => candidate.id === campaign.id) ?? campaign,
  }
}
