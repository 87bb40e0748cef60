// The context a snippet checked on its own is read in (analysis/snippet-context.ts): its includer's place when that
// is checked too, else its directory's, else its content's, and a misplaced directive never makes the guess. Each
// verdict is nginx's: the snippet included where the guess says, real nginx -t names the same line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../server/src/engine/analyze.js';
import type { Finding } from '../../server/src/util/types.js';
import type { NginxContext } from '../support/expectations.js';
import { nginxTestSnippets } from '../support/nginx.js';
import { readDocuments, tempTree } from '../model/support.js';

/** A server-level snippet: TLS settings and a location of its own, and an alias outside any location (line 4). */
const SERVER_SNIPPET =
  'ssl_protocols TLSv1.2 TLSv1.3;\nlocation /static/ {\n    root /srv;\n}\nalias /srv/app/;\nadd_header X-Frame-Options DENY;\n';
const ALIAS_LINE = 5;

async function directiveFindings(root: string, relatives: string[]): Promise<Finding[]> {
  const findings = await analyze(readDocuments(root, relatives), { nginxVersion: '1.22.1' });
  return findings.filter((finding) => finding.ruleId === 'directive');
}

function nginxLine(text: string, context: NginxContext): string {
  const result = nginxTestSnippets([text], context);
  return `${result.errors[0]?.line}: ${result.errors[0]?.message}`;
}

describe('the context a snippet is read in', () => {
  it("reports a server snippet's alias, saying it was read at server level from its content", async () => {
    expect(nginxLine(SERVER_SNIPPET, 'server')).toBe(`${ALIAS_LINE}: "alias" directive is not allowed here`);
    const root = tempTree({ 'misc/tls-static.conf': SERVER_SNIPPET });
    const [finding, ...rest] = await directiveFindings(root, ['misc/tls-static.conf']);
    expect(rest).toEqual([]);
    expect(finding?.span.start.line).toBe(ALIAS_LINE - 1);
    expect(finding?.message).toMatch(/^"alias" directive is not allowed in server/);
    expect(finding?.detail).toMatch(/^Read as included at server \(from its top-level directives/);
  });

  it('reads a file in snippets/ at server or location level: the same alias, and Debian\'s fastcgi-php.conf clean', async () => {
    const fastcgi = readFileSync('/etc/nginx/snippets/fastcgi-php.conf', 'utf8').replace('include fastcgi.conf;', '');
    expect(nginxTestSnippets([fastcgi], 'location').ok).toBe(true);
    const alone = 'ssl_protocols TLSv1.2;\nalias /srv/app/;\n';
    expect(nginxLine(alone, 'server')).toBe('2: "alias" directive is not allowed here');
    const root = tempTree({ 'snippets/fastcgi-php.conf': fastcgi, 'snippets/tls.conf': alone });
    const findings = await directiveFindings(root, ['snippets/fastcgi-php.conf', 'snippets/tls.conf']);
    expect(findings.map((finding) => `${path.basename(finding.file)}:${finding.span.start.line + 1}`)).toEqual(['tls.conf:2']);
    expect(findings[0]?.detail).toMatch(/^Read as included at server \(from its directory snippets\/\)/);
  });

  it("reads a snippet in its includer's place when the includer is checked with it", async () => {
    const root = tempTree({
      'nginx.conf': 'events {}\nhttp {\n    server {\n        listen 8080;\n        location / {\n            include snippets/app.conf;\n        }\n    }\n}\n',
      'snippets/app.conf': 'ssl_protocols TLSv1.2;\nlocation /static/ {\n    root /srv;\n}\nalias /srv/app/;\n',
    });
    // Included in a location, the alias is in place and ssl_protocols is not (nginx -t says so on line 1).
    const findings = await directiveFindings(root, ['nginx.conf', 'snippets/app.conf']);
    expect(findings.map((finding) => `${finding.span.start.line + 1}: ${finding.message.split(':')[0]}`)).toEqual([
      '1: "ssl_protocols" directive is not allowed in location',
    ]);
    expect(findings[0]?.detail).toBeUndefined();
  });

  it('reads a file in sites-enabled/ at http level', async () => {
    const text = 'proxy_buffering off;\nproxy_pass http://127.0.0.1:5000;\n';
    expect(nginxLine(text, 'http')).toBe('2: "proxy_pass" directive is not allowed here');
    const root = tempTree({ 'sites-enabled/app': text });
    const findings = await directiveFindings(root, ['sites-enabled/app']);
    expect(findings.map((finding) => finding.span.start.line + 1)).toEqual([2]);
    expect(findings[0]?.detail).toMatch(/from its directory sites-enabled\//);
  });
});
