// Where each rule's documentation lives on the web (SARIF helpUri, and later the language server's code links).
// One constant, so moving the repository or the docs is a one-line change.
export const RULE_DOCS_BASE_URL = 'https://github.com/nginx-keepalive/nginx-keepalive/blob/main/docs/rules/';

/** The page of `docs/rules/<id>.md`. */
export function docsUrl(ruleId: string): string {
  return `${RULE_DOCS_BASE_URL}${encodeURIComponent(ruleId)}.md`;
}
