export { openLargeDatasetPglite, type LargeDatasetPglite } from './cache'
export { loadLargeDataset, type DatasetReport } from './load'
export {
  DATASET_EMAIL_DOMAIN,
  DATASET_EMAIL_PATTERN,
  DATASET_PASSWORD,
  DEFAULT_DATASET_SEED,
  FULL_SCALE,
  MAX_SCALE,
  datasetCounts,
  datasetEmail,
  parseDatasetFlags,
  resolveDatasetOptions,
  type DatasetOptions,
} from './options'
export { demoAccounts } from './people'
