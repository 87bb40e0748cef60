// Go to definition and find references over real files on disk: pass targets and upstream blocks across an include,
// `$variables` and the map defining them, includes and the files they resolve to.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FeatureLocation } from '../../server/src/features/context.js';
import { definitionsAt, referencesAt } from '../../server/src/features/navigation.js';
import { analyze } from './support.js';

const MAIN = `events {}
http {
    upstream backend {
        server 127.0.0.1:3000;
        keepalive 16;
    }
    map $http_upgrade $connection_upgrade {
        default upgrade;
        '' '';
    }
    include conf.d/*.conf;
}
`;

const SITE_A = `server {
    listen 80;
    location / {
        proxy_set_header Connection $connection_upgrade;
        proxy_pass http://backend;
    }
    location /static/ {
        if ($connection_upgrade) { return 403; }
        proxy_pass http://BACKEND/static/;
    }
}
`;

const SITE_B = `server {
    listen 8080;
    location / { grpc_pass grpc://backend; }
}
`;

const FILES = { 'nginx.conf': MAIN, 'conf.d/a.conf': SITE_A, 'conf.d/b.conf': SITE_B };

/** `file:text` of each location, to compare with what the source says. */
function described(locations: FeatureLocation[], root: string): string[] {
  return locations.map(
    (location) =>
      `${path.relative(root, location.file.path)}:${location.file.text.slice(location.span.startOffset, location.span.endOffset)}` +
      `@${location.span.startOffset}`,
  );
}

describe('definitions', () => {
  it('goes from a proxy_pass target in one file to the upstream block in another', async () => {
    const analyzed = await analyze(FILES, ['nginx.conf']);
    const site = analyzed.other('conf.d/a.conf');
    const offset = site.file.text.indexOf('http://backend') + 9;
    const found = definitionsAt(site, offset);
    expect(described(found, analyzed.root)).toEqual([`nginx.conf:backend@${MAIN.indexOf('backend')}`]);
    // nginx compares upstream names case-insensitively.
    const upper = definitionsAt(site, site.file.text.indexOf('BACKEND'));
    expect(described(upper, analyzed.root)).toEqual([`nginx.conf:backend@${MAIN.indexOf('backend')}`]);
  });

  it('answers the upstream block name with itself', async () => {
    const analyzed = await analyze(FILES, ['nginx.conf']);
    const found = definitionsAt(analyzed.ctx, analyzed.at('backend', 2));
    expect(described(found, analyzed.root)).toEqual([`nginx.conf:backend@${MAIN.indexOf('backend')}`]);
  });

  it('goes from a $variable to the map that defines it, in an argument and in an if condition', async () => {
    const analyzed = await analyze(FILES, ['nginx.conf']);
    const site = analyzed.other('conf.d/a.conf');
    const expected = [`nginx.conf:$connection_upgrade@${MAIN.indexOf('$connection_upgrade')}`];
    const inArgument = definitionsAt(site, site.file.text.indexOf('$connection_upgrade') + 3);
    expect(described(inArgument, analyzed.root)).toEqual(expected);
    const inCondition = definitionsAt(site, site.file.text.indexOf('($connection_upgrade)') + 4);
    expect(described(inCondition, analyzed.root)).toEqual(expected);
  });

  it('goes from an include to every file it resolves to, in nginx order', async () => {
    const analyzed = await analyze(FILES, ['nginx.conf']);
    const found = definitionsAt(analyzed.ctx, analyzed.at('conf.d/*.conf', 3));
    expect(found.map((location) => path.relative(analyzed.root, location.file.path))).toEqual(['conf.d/a.conf', 'conf.d/b.conf']);
    expect(found.every((location) => location.span.startOffset === 0 && location.span.endOffset === 0)).toBe(true);
  });

  it('finds nothing on white space or an unrelated directive', async () => {
    const analyzed = await analyze(FILES, ['nginx.conf']);
    expect(definitionsAt(analyzed.ctx, analyzed.at('events {}', 7))).toEqual([]);
    expect(definitionsAt(analyzed.ctx, analyzed.at('server 127', 8))).toEqual([]);
  });
});

describe('references', () => {
  it('lists every pass targeting the upstream across files, with the declaration when asked', async () => {
    const analyzed = await analyze(FILES, ['nginx.conf']);
    const offset = analyzed.at('backend', 0);
    const uses = described(referencesAt(analyzed.ctx, offset, false), analyzed.root);
    expect(uses).toEqual([
      `conf.d/a.conf:http://backend@${SITE_A.indexOf('http://backend')}`,
      `conf.d/a.conf:http://BACKEND/static/@${SITE_A.indexOf('http://BACKEND')}`,
      `conf.d/b.conf:grpc://backend@${SITE_B.indexOf('grpc://backend')}`,
    ]);
    const withDeclaration = described(referencesAt(analyzed.ctx, offset, true), analyzed.root);
    expect(withDeclaration).toEqual([`nginx.conf:backend@${MAIN.indexOf('backend')}`, ...uses]);
  });

  it('gives the same references from a pass target as from the upstream name', async () => {
    const analyzed = await analyze(FILES, ['nginx.conf']);
    const site = analyzed.other('conf.d/b.conf');
    const fromTarget = referencesAt(site, site.file.text.indexOf('grpc://backend') + 8, true);
    expect(described(fromTarget, analyzed.root)).toEqual(described(referencesAt(analyzed.ctx, analyzed.at('backend'), true), analyzed.root));
  });

  it('lists the uses of a map variable, in arguments and if conditions', async () => {
    const analyzed = await analyze(FILES, ['nginx.conf']);
    const offset = analyzed.at('$connection_upgrade', 1);
    const uses = described(referencesAt(analyzed.ctx, offset, false), analyzed.root);
    expect(uses).toEqual([
      `conf.d/a.conf:$connection_upgrade@${SITE_A.indexOf('$connection_upgrade')}`,
      `conf.d/a.conf:$connection_upgrade@${SITE_A.indexOf('($connection_upgrade)') + 1}`,
    ]);
    expect(described(referencesAt(analyzed.ctx, offset, true), analyzed.root)[0]).toBe(
      `nginx.conf:$connection_upgrade@${MAIN.indexOf('$connection_upgrade')}`,
    );
  });
});
