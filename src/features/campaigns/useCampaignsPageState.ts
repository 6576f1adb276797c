import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useCurrentUser } from '@/auth/auth-context'
import { isAdministrator } from '@/auth/roles'
import { usePagedList } from '@/lib/use-paged-list'
import { useCampaign, useCampaignsPage, useDeleteCampaign, useSetCampaignStatus, type CampaignSort } from './api'
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

/**
 * The campaigns page's data, one page of the list searched and sorted on the server, its open dialog and the campaign a
 * link (?campagne=<id>) points to, read on its own since it may be on any page.
 */
export function useCampaignsPageState() {
  const admin = isAdministrator(useCurrentUser())
  // Newest first, as the list has always opened.
  const list = usePagedList<CampaignSort>({ sort: 'created_at', direction: 'desc' })
  const campaigns = useCampaignsPage(list.request)
  const setStatus = useSetCampaignStatus()
  const remove = useDeleteCampaign()
  const [chosen, setChosen] = useState<CampaignsDialog>(null)
  const [formKey, setFormKey] = useState(0)
  const [searchParams] = useSearchParams()
  const linkedId = searchParams.get(CAMPAIGN_LINK_PARAM)
  const linkedCampaign = useCampaign(linkedId)
  // The linked campaign's dialog opens once; closing it leaves the row highlighted and the link as it was.
  const [dismissedLink, setDismissedLink] = useState<string | null>(null)
  const linked = linkedId ? (linkedCampaign.data ?? null) : null
  const dialog = chosen ?? (linked && linkedId !== dismissedLink ? linkedDialog(linked, admin) : null)
  const rows = campaigns.data?.rows

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
    if (campaign.id === linkedId) void linkedCampaign.refetch()
    setChosen({ kind: 'export', campaign })
  }

  return {
    admin,
    list,
    campaigns,
    setStatus,
    remove,
    dialog,
    formKey,
    linkedId,
    linkedShown: rows?.some((campaign) => campaign.id === linkedId) ?? false,
    linkMissing: linkedId !== null && linkedCampaign.data === null,
    open: setChosen,
    openForm,
    openExport,
    close,
    // A dialog shows the campaign as the list (or the link's own read) has it now, so that live changes reach its counts.
    current: (campaign: Campaign) =>
      rows?.find((candidate) => candidate.id === campaign.id) ?? (linkedCampaign.data?.id === campaign.id ? linkedCampaign.data : campaign),
  }
}
