// The nginx version a Dockerfile or compose file names (engine/container-files.ts, engine/nginx-image.ts), and the
// precedence between the flag, the settings file, detection and the default (engine/nginx-target.ts).
import { describe, expect, it } from 'vitest';
import {
  composeNginxImages,
  dockerfileNginxImage,
  isComposeName,
  isDockerfileName,
  oldestImage,
} from '../../server/src/engine/container-files.js';
import { imageVersion } from '../../server/src/engine/nginx-image.js';
import { MAINLINE_LINE, newerThanKnownReleases, STABLE_LINE } from '../../server/src/engine/nginx-releases.js';
import { chooseNginxTarget, describeNginxTarget } from '../../server/src/engine/nginx-target.js';

const version = (reference: string) => {
  const found = imageVersion(reference);
  return found?.kind === 'version' ? `${found.version.join('.')} (${found.label})` : found?.kind;
};

describe('imageVersion: image names and tags', () => {
  it.each([
    ['nginx:1.27.3', '1.27.3 (1.27.3)'],
    ['nginx:1.27-alpine', '1.27.0 (1.27)'],
    ['nginx:1.27.3-alpine-slim', '1.27.3 (1.27.3)'],
    ['nginx:1.29', '1.29.8 (1.29)'],
    ['nginx:1.30', '1.30.5 (1.30)'],
    ['nginx:1.31-alpine', '1.31.6 (1.31)'],
    ['nginx:1.31.6', '1.31.6 (1.31.6)'],
    ['nginx:1.30.5-alpine', '1.30.5 (1.30.5)'],
    ['nginx:1.24', '1.24.0 (1.24)'],
    ['nginx:stable', '1.30.5 (1.30)'],
    ['nginx:stable-alpine', '1.30.5 (1.30)'],
    ['nginx:mainline', '1.31.6 (1.31)'],
    ['nginx:mainline-alpine', '1.31.6 (1.31)'],
    ['nginx:latest', '1.31.6 (1.31)'],
    ['nginx:alpine', '1.31.6 (1.31)'],
    ['nginx:perl', '1.31.6 (1.31)'],
    ['nginx:1', '1.31.6 (1.31)'],
    ['nginx:1-alpine', '1.31.6 (1.31)'],
    ['nginx', '1.31.6 (1.31)'],
    ['library/nginx:1.25', '1.25.0 (1.25)'],
    ['docker.io/library/nginx:1.26.2', '1.26.2 (1.26.2)'],
    ['docker.io/nginx:stable', '1.30.5 (1.30)'],
    ['public.ecr.aws/nginx/nginx:1.27', '1.27.0 (1.27)'],
    ['registry.example.com:5000/library/nginx:1.22', '1.22.0 (1.22)'],
    ['nginx:1.27@sha256:0123456789abcdef', '1.27.0 (1.27)'],
    ['nginxinc/nginx-unprivileged:1.25-alpine', '1.25.0 (1.25)'],
    ['nginxinc/nginx-unprivileged:stable', '1.30.5 (1.30)'],
    ['nginxinc/nginx-unprivileged', '1.31.6 (1.31)'],
    ['openresty/openresty:1.27.1.2-alpine', '1.27.1 (1.27.1)'],
    ['openresty/openresty:1.25.3.1-bookworm', '1.25.3 (1.25.3)'],
    ['openresty/openresty:1.21.4.4', '1.21.4 (1.21.4)'],
    ['openresty/openresty:1.27', '1.27.1 (1.27.1)'],
    ['openresty/openresty:alpine', '1.29.2 (1.29.2)'],
    ['openresty/openresty', '1.29.2 (1.29.2)'],
    ['NGINX:1.23', '1.23.0 (1.23)'],
  ])('%s -> %s', (reference, expected) => {
    expect(version(reference)).toBe(expected);
  });

  it('knows nothing of other images', () => {
    for (const reference of ['node:20', 'bitnami/nginx:1.25', 'myorg/nginx:1.27', 'nginx-proxy:1.0', 'caddy:2']) {
      expect(imageVersion(reference)).toBeUndefined();
    }
  });

  it('says unknown when the reference does not name a version', () => {
    expect(version('nginx@sha256:0123456789abcdef')).toBe('unknown');
    expect(version('nginx:${NGINX_TAG}')).toBe('unknown');
    expect(version('nginx:1.x')).toBe('unknown');
  });

  it('reads no version from what is not a tag by Docker\'s grammar, and never quotes it back', () => {
    for (const tag of ['1.27\x1b[31m', '1.27 beta', '', '-1.27', '.1.27', 'é', 'x'.repeat(129)]) {
      expect(imageVersion(`nginx:${tag}`), JSON.stringify(tag)).toEqual({ kind: 'unknown', why: 'its tag is not a valid image tag' });
    }
    // 128 characters is a tag still (a word tag: the mainline line), and so is one starting with `_`.
    expect(version(`nginx:a${'x'.repeat(127)}`)).not.toBe('unknown');
    expect(version('nginx:_x.Y-1')).not.toBe('unknown');
  });

  it('reads floating tags from the release table', () => {
    expect(imageVersion('nginx:stable')).toMatchObject({ version: STABLE_LINE });
    expect(imageVersion('nginx:latest')).toMatchObject({ version: MAINLINE_LINE });
  });
});

describe('dockerfileNginxImage', () => {
  it('reads FROM with flags, aliases, digests and comments', () => {
    expect(dockerfileNginxImage('FROM nginx:1.27-alpine\nCOPY nginx.conf /etc/nginx/nginx.conf\n')).toMatchObject({
      image: 'nginx:1.27-alpine',
      line: 1,
    });
    expect(dockerfileNginxImage('# syntax=docker/dockerfile:1\n\nFROM --platform=$BUILDPLATFORM nginx:1.25.4 AS web\n')).toMatchObject({
      image: 'nginx:1.25.4',
      line: 3,
    });
    expect(dockerfileNginxImage('from nginx@sha256:abc\n')?.version.kind).toBe('unknown');
    expect(dockerfileNginxImage('FROM node:20\nRUN make\n')).toBeUndefined();
  });

  it('takes the last nginx stage of a multi-stage build, through stage aliases', () => {
    const text = [
      'FROM node:20 AS build',
      'RUN npm ci && npm run build',
      'FROM nginx:1.24 AS base',
      'FROM base',
      'COPY --from=build /app/dist /usr/share/nginx/html',
    ].join('\n');
    expect(dockerfileNginxImage(text)).toMatchObject({ image: 'nginx:1.24', line: 3 });
    // A later non-nginx stage (built with --target) does not hide the nginx one.
    expect(dockerfileNginxImage('FROM nginx:stable AS proxy\nFROM golang:1.22 AS tools\n')).toMatchObject({ image: 'nginx:stable' });
    expect(dockerfileNginxImage('FROM nginx:1.22\nFROM openresty/openresty:1.27.1.2\n')).toMatchObject({ line: 2 });
  });

  it('substitutes global ARG defaults; without one the version is unknown', () => {
    expect(dockerfileNginxImage('ARG NGINX_VERSION=1.25.3\nFROM nginx:${NGINX_VERSION}-alpine\n')).toMatchObject({
      image: 'nginx:1.25.3-alpine',
      line: 2,
    });
    expect(dockerfileNginxImage('ARG TAG="1.23"\nFROM nginx:$TAG\n')).toMatchObject({ image: 'nginx:1.23' });
    expect(dockerfileNginxImage('ARG TAG\nFROM nginx:${TAG}\n')?.version.kind).toBe('unknown');
    expect(dockerfileNginxImage('FROM nginx:${TAG:-1.21}\n')).toMatchObject({ image: 'nginx:1.21' });
    // An ARG after the first FROM belongs to that stage: FROM cannot use it.
    expect(dockerfileNginxImage('FROM alpine\nARG TAG=1.22\nFROM nginx:${TAG}\n')?.version.kind).toBe('unknown');
    // A variable registry in front of a known image still names it.
    expect(dockerfileNginxImage('FROM ${REGISTRY}/library/nginx:1.26\n')).toMatchObject({ line: 1 });
  });

  it('joins continuation lines and reports the FROM line', () => {
    expect(dockerfileNginxImage('RUN true\nFROM \\\n  --platform=linux/amd64 \\\n  nginx:1.20\n')).toMatchObject({ image: 'nginx:1.20', line: 2 });
    expect(dockerfileNginxImage('FROM nginx:1.20\r\nRUN x\r\n')).toMatchObject({ image: 'nginx:1.20' });
  });
});

describe('composeNginxImages', () => {
  it('reads every image: naming nginx, with quotes, comments and defaults', () => {
    const text = [
      'services:',
      '  web:',
      '    image: "nginx:1.27-alpine" # the proxy',
      '  app:',
      '    image: node:20',
      '  edge:',
      "    image: '${EDGE_IMAGE:-openresty/openresty:1.25.3.2}'",
      '  other:',
      '    image: nginx:${TAG}',
    ].join('\n');
    expect(composeNginxImages(text).map((image) => [image.image, image.line, image.version.kind])).toEqual([
      ['nginx:1.27-alpine', 3, 'version'],
      ['openresty/openresty:1.25.3.2', 7, 'version'],
      ['nginx:${TAG}', 9, 'unknown'],
    ]);
  });

  it('picks the oldest image, an unknown one first', () => {
    const images = composeNginxImages('a:\n  image: nginx:stable\nb:\n  image: nginx:1.22\n');
    expect(oldestImage(images)).toMatchObject({ image: 'nginx:1.22' });
    const withUnknown = composeNginxImages('a:\n  image: nginx:1.22\nb:\n  image: nginx@sha256:abc\n');
    expect(oldestImage(withUnknown)?.version.kind).toBe('unknown');
  });
});

describe('file names', () => {
  it('knows Dockerfiles and compose files', () => {
    for (const name of ['Dockerfile', 'dockerfile', 'Dockerfile.prod', 'nginx.Dockerfile', 'Containerfile']) {
      expect(isDockerfileName(name)).toBe(true);
    }
    for (const name of ['docker-compose.yml', 'docker-compose.yaml', 'compose.yaml', 'compose.yml', 'docker-compose.prod.yml']) {
      expect(isComposeName(name)).toBe(true);
    }
    for (const name of ['Dockerfile__x.conf', 'nginx.conf', 'compose.json', 'my-compose.yml']) {
      expect(isDockerfileName(name) || isComposeName(name)).toBe(false);
    }
  });
});

describe('chooseNginxTarget: flag, settings file, detection, default', () => {
  const detected = { file: '/repo/Dockerfile', ...dockerfileNginxImage('FROM nginx:stable\n')! };
  const show = (file: string) => file.slice('/repo/'.length);

  it('takes the first given, in that order', () => {
    const explicit = { version: '1.22.1', source: 'flag' as const };
    const settings = { version: '1.24.0', file: '/repo/.nginx-keepalive.json' };
    expect(chooseNginxTarget({ explicit, settings, detected })).toMatchObject({ version: '1.22.1', source: 'flag' });
    expect(chooseNginxTarget({ settings, detected })).toMatchObject({ version: '1.24.0', source: 'settings' });
    expect(chooseNginxTarget({ detected })).toMatchObject({ version: '1.30.5', label: '1.30', source: 'detected' });
    expect(chooseNginxTarget({})).toMatchObject({ version: undefined, source: 'default' });
  });

  it('knows the releases of 15 September 2026: 1.31.6 mainline and 1.30.5 stable', () => {
    expect(MAINLINE_LINE).toEqual([1, 31, 6]);
    expect(STABLE_LINE).toEqual([1, 30, 5]);
    for (const known of [[1, 31, 6], [1, 30, 5], [1, 22, 1], [1, 29, 8]] as const) expect(newerThanKnownReleases(known)).toBe(false);
    for (const later of [[1, 31, 7], [1, 32, 0], [2, 0, 0]] as const) expect(newerThanKnownReleases(later)).toBe(true);
  });

  it('says when an explicit target is newer than every release it knows', () => {
    const flag = (version: string) => describeNginxTarget(chooseNginxTarget({ explicit: { version, source: 'flag' } }), show);
    expect(flag('1.30.5')).toBe('nginx 1.30.5 (--nginx-version)');
    expect(flag('1.31.7')).toBe(
      'nginx 1.31.7 (--nginx-version; newer than 1.31.6, the newest release known on 2026-09-15; directives are checked as 1.31.5 has them, the newest release the table read)',
    );
  });

  it('says when the target is outside the releases the directive table was read from', () => {
    const flag = (version: string) => describeNginxTarget(chooseNginxTarget({ explicit: { version, source: 'flag' } }), show);
    expect(flag('1.22.1')).toBe('nginx 1.22.1 (--nginx-version)');
    expect(flag('1.22.0')).toBe('nginx 1.22.0 (--nginx-version)');
    expect(flag('1.21.6')).toBe('nginx 1.21.6 (--nginx-version; directives are checked as 1.22.1 has them, the oldest release the table read)');
    expect(flag('1.31.5')).toBe('nginx 1.31.5 (--nginx-version)');
    expect(flag('1.31.6')).toBe('nginx 1.31.6 (--nginx-version; directives are checked as 1.31.5 has them, the newest release the table read)');
    expect(flag('1.18.0')).toBe('nginx 1.18.0 (--nginx-version; directives are checked as 1.22.1 has them, the oldest release the table read)');
  });

  it('describes each as the reports print it', () => {
    expect(describeNginxTarget(chooseNginxTarget({ detected }), show)).toBe('nginx 1.30 (Dockerfile:1)');
    expect(describeNginxTarget(chooseNginxTarget({}), show)).toBe('nginx before 1.29.7 (default)');
    expect(describeNginxTarget(chooseNginxTarget({ explicit: { version: '1.22.1', source: 'flag' } }), show)).toBe(
      'nginx 1.22.1 (--nginx-version)',
    );
    const unknown = { file: '/repo/Dockerfile', ...dockerfileNginxImage('ARG T\nFROM nginx:$T\n')! };
    expect(describeNginxTarget(chooseNginxTarget({ detected: unknown }), show)).toBe(
      'nginx before 1.29.7 (default: Dockerfile:2 nginx:$T, its tag is a variable with no default)',
    );
  });
});
