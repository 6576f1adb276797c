/**
 * The first element of the key of every query that shows rights or decisions: the review queue and the bell's count,
 * a person's rights, the decision history, the team's progress and the reviewers' dashboards. A decision invalidates
 * this one prefix, so that no view it changes is left showing the right as it was; features cannot import each
 * other's keys, hence this shared root.
 */
export const RIGHTS_QUERY_ROOT = 'rights'
