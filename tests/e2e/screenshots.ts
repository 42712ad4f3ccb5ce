/**
 * Marks a test that is there for its screenshots (and the checks made on them). The run on plain `next start`
 * leaves them out: it serves the very same pages, and the serve.ts run has already taken them.
 */
export const SCREENSHOTS_TAG = { tag: "@screenshots" };
