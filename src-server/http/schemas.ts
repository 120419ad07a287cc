// The HTTP contract lives in src-shared/api/ (docs/decisions/0011-one-http-contract.md). These two are
// re-exported for the app's schema registration and for routes that do not come from the contract.
export { errorResponses } from '../../src-shared/api/common.js';
export { sharedSchemas } from '../../src-shared/api/named-schemas.js';
