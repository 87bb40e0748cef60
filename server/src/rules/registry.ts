// Every rule analyze() runs, in one list. It also drives the README rule table and the settings schema.
import { includeRule } from './include.js';
import { syntaxRule } from './syntax.js';
import { directiveRule } from './directive.js';
import { loneCarriageReturnRule } from './lone-carriage-return.js';
import { upstreamKeepaliveRule } from './upstream-keepalive.js';
import { proxyHttpVersionRule } from './proxy-http-version.js';
import { connectionHeaderMissingRule } from './connection-header-missing.js';
import { connectionHeaderPassthroughRule } from './connection-header-passthrough.js';
import { connectionUpgradeLiteralRule } from './connection-upgrade-literal.js';
import { connectionMapCloseRule } from './connection-map-close.js';
import { keepaliveOrderRule } from './keepalive-order.js';
import { fastcgiKeepConnRule } from './fastcgi-keep-conn.js';
import { proxySetHeaderInheritanceRule } from './proxy-set-header-inheritance.js';
import { proxyPassNoUpstreamRule } from './proxy-pass-no-upstream.js';
import type { Rule } from '../analysis/rule-api.js';
import { unusedSuppressionRule } from './unused-suppression.js';

export const rules: readonly Rule[] = [
  syntaxRule,
  includeRule,
  directiveRule,
  loneCarriageReturnRule,
  upstreamKeepaliveRule,
  proxyHttpVersionRule,
  connectionHeaderMissingRule,
  connectionHeaderPassthroughRule,
  connectionUpgradeLiteralRule,
  connectionMapCloseRule,
  keepaliveOrderRule,
  fastcgiKeepConnRule,
  proxySetHeaderInheritanceRule,
  proxyPassNoUpstreamRule,
  unusedSuppressionRule,
];

export function findRule(id: string): Rule | undefined {
  return rules.find((rule) => rule.meta.id === id);
}
