/**
 * The words of a campaign's review figures, the same on every screen and in the evidence pack. A right is « revu » when
 * its review reached an outcome before the campaign closed (refused at some stage, or approved at the last one); those
 * Terminer found undecided went to the RA and are counted apart. The database counts them (private.is_reviewed).
 */
import { countText, shareText } from './plural'

/** What the campaign's rate (Progression) counts. */
export const REVIEW_RATE_BASIS = 'droits revus / tous les droits'

/** What « revu » means, where a figure needs it said. */
export const REVIEWED_MEANING = 'refusés à une étape ou validés à la dernière étape, avant la clôture'

/** The label of the items a closed campaign sent to the RA undecided. */
export const UNDECIDED_AT_CLOSURE_LABEL = 'Non décidés à la clôture (transmis au RA)'

/** « 3 droits revus sur 17 ». */
export const reviewedText = (reviewed: number, total: number) => shareText(reviewed, total, 'droit revu', 'droits revus')

/** Where the items undecided at closure went, the end of their figure's words. */
export const SENT_TO_RA = ' (transmis au RA)'

/** « 14 non décidés à la clôture (transmis au RA) ». */
export const undecidedAtClosureText = (undecided: number) =>
  `${countText(undecided, 'non décidé', 'non décidés')} à la clôture${SENT_TO_RA}`

/**
 * The lines under a campaign's progress bar: a draft's rights (nothing is reviewed before the start), then once started
 * « 3 droits revus sur 17 », and for a closed campaign « 14 non décidés à la clôture (transmis au RA) » when there are.
 */
export function campaignFigureLines(campaign: { status: string; rightsCount: number; reviewedCount: number; undecidedCount: number }): string[] {
  if (campaign.status === 'draft') return [countText(campaign.rightsCount, 'droit', 'droits')]
  const lines = [reviewedText(campaign.reviewedCount, campaign.rightsCount)]
  if (campaign.undecidedCount > 0) lines.push(undecidedAtClosureText(campaign.undecidedCount))
  return lines
}
