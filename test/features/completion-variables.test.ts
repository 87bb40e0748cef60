// Completing `$variables` over real parsed files: built-in ones of the place's protocol and version, those the files
// define (set, map, geo), prefix names already in use, regex captures of the blocks around the cursor; and the
// statement being typed read right when it has no `;` yet.
import { describe, expect, it } from 'vitest';
import { completionDocumentation, completionsAt } from '../../server/src/features/completion.js';
import { analyze } from './support.js';

async function complete(text: string, options = {}) {
  const offset = text.indexOf('|');
  const analyzed = await analyze({ 'nginx.conf': text.slice(0, offset) + text.slice(offset + 1) }, undefined, options);
  const candidates = completionsAt(analyzed.ctx, offset);
  return { candidates, labels: candidates.map((candidate) => candidate.label), text: analyzed.text, offset };
}

const HTTP = (inLocation: string, location = 'location /') => `http {
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  geo $office { default 0; 10.0.0.0/8 1; }
  server {
    set $backend app;
    proxy_set_header X-Id $http_x_request_id;
    ${location} {
      ${inLocation}
    }
  }
}
`;

describe('variables', () => {
  it('offers built-in, defined and in-use prefix variables after $, replacing from the $', async () => {
    const { candidates, labels, text, offset } = await complete(HTTP('proxy_set_header Connection $con|'));
    expect(labels).toEqual(expect.arrayContaining(['$connection_upgrade', '$office', '$backend', '$http_x_request_id', '$host', '$remote_addr', '$http_']));
    const upgrade = candidates.find((candidate) => candidate.label === '$connection_upgrade')!;
    expect(text.slice(upgrade.span.startOffset, offset)).toBe('$con');
    expect(upgrade.text).toBe('$connection_upgrade');
    expect(upgrade.detail).toBe('set by map');
    expect(upgrade.documentation).toContain('- `map $http_upgrade $connection_upgrade` (nginx.conf:2)');
    // Defined ones sort before built-in ones; each name once.
    expect(upgrade.sortText < candidates.find((candidate) => candidate.label === '$host')!.sortText).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
    // No stream-only variable in http.
    expect(labels).not.toContain('$ssl_preread_server_name');
  });

  it('documents a built-in variable from the table', async () => {
    const { candidates } = await complete(HTTP('return 200 $|;'));
    const host = candidates.find((candidate) => candidate.label === '$host')!;
    expect(completionDocumentation(host.reference!, {})).toContain('ngx_http_core_module.html#var_host');
  });

  it('completes ${name and inside quotes and if conditions', async () => {
    const braced = await complete(HTTP('return 200 "${ho|";'));
    const host = braced.candidates.find((candidate) => candidate.label === '$host')!;
    expect(host.text).toBe('${host}');
    expect(braced.text.slice(host.span.startOffset, braced.offset)).toBe('${ho');
    expect((await complete(HTTP('if ($req| = POST) { return 405; }'))).labels).toContain('$request_method');
  });

  it('offers the captures of the regex location around the cursor, numbered and named', async () => {
    const { candidates, labels } = await complete(HTTP('return 200 $|;', 'location ~ ^/(api)/(?<rest>.*)$'));
    expect(labels).toEqual(expect.arrayContaining(['$1', '$2', '$rest']));
    expect(labels).not.toContain('$3');
    expect(candidates.find((candidate) => candidate.label === '$1')!.documentation).toBe(
      'Capture 1 of `location ~ ^/(api)/(?<rest>.*)$` (nginx.conf:7)',
    );
    expect((await complete(HTTP('return 200 $|;'))).labels).not.toContain('$1');
  });

  it('offers stream variables in a stream server', async () => {
    const { labels } = await complete('stream {\n  server {\n    listen 443;\n    proxy_pass $|;\n  }\n}\n');
    expect(labels).toContain('$ssl_preread_server_name');
    expect(labels).not.toContain('$request_uri');
  });

  it('leaves out variables newer than the target nginx', async () => {
    const text = HTTP('return 200 $|;');
    const { allVariables, existsInVersion } = await import('../../server/src/model/directive-table.js');
    const newer = allVariables().find((variable) => variable.protocol === 'http' && !existsInVersion(variable, [1, 22, 1]) && existsInVersion(variable, [1, 30, 0]))!;
    expect((await complete(text, { nginxVersion: '1.22.1' })).labels).not.toContain(`$${newer.name}`);
    expect((await complete(text, { nginxVersion: '1.30.0' })).labels).toContain(`$${newer.name}`);
  });

  it('offers nothing for a $ inside a template action', async () => {
    const text = 'server {\n  location / {\n    proxy_pass http://{{ $|.APP }};\n  }\n}\n';
    expect((await complete(text)).labels).toEqual([]);
  });
});

describe('statements being typed', () => {
  it('reads a name with no ; yet, before other statements and before the closing brace', async () => {
    const before = await complete(HTTP('prox|\n      proxy_http_version 1.1;'));
    expect(before.labels).toContain('proxy_pass');
    const atEnd = await complete('http {\n  server {\n    location / {\n      prox|\n    }\n  }\n}\n');
    expect(atEnd.labels).toContain('proxy_pass');
  });

  it('reads a value on a line whose statement is not finished, and after a finished one on the same line', async () => {
    expect((await complete(HTTP('gzip on; gzip_vary o|'))).labels).toEqual(['on', 'off']);
    expect((await complete(HTTP('gzip on; |'))).labels).toContain('gzip_vary');
  });

  it('offers nothing mid-string or in a comment after a statement', async () => {
    expect((await complete(HTTP('return 200 "ab|'))).labels).toEqual([]);
    expect((await complete(HTTP('gzip on; # prox|'))).labels).toEqual([]);
  });
});

describe('regexCaptures', () => {
  it('counts groups past escapes, classes, non-capturing groups and lookarounds', async () => {
    const { regexCaptures } = await import('../../server/src/features/regex-captures.js');
    expect(regexCaptures('^/(a)\\(b\\)[(](?:c)(?=d)(?<=e)(?<name>f)(?P<py>g)(?\'q\'h)$')).toEqual({ count: 4, names: ['name', 'py', 'q'] });
    expect(regexCaptures('[]()](x)')).toEqual({ count: 1, names: [] });
    expect(regexCaptures('(unclosed')).toEqual({ count: 1, names: [] });
  });
});
