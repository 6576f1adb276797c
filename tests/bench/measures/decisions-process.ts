/**
 * The reviewers of the decisions measure, in a process of their own (measureDecisionsApart). Input: one JSON argument
 * { backendUrl, emails, slots, perReviewer }; output: the DecisionsResult as JSON on stdout.
 */
import { loadReviewers, measureDecisions } from './decisions'

const input = JSON.parse(process.argv[2] ?? '{}') as { backendUrl: string; emails: string[]; slots: number; perReviewer: number }
// Enough accounts for every session to warm up and decide on an account of its own, where the dataset has them.
const accounts = await loadReviewers(input.backendUrl, input.emails, 2, { accounts: input.slots, items: 2 * input.perReviewer })
const result = await measureDecisions(accounts, input.slots, input.perReviewer)
process.stdout.write(JSON.stringify(result))
process.exit(0)
