// Generated inputs for the scaling runs: realistic app blocks (an upstream, a server proxying to it, static files, an
// API location proxying to a bare address), each with its own names so that size grows without name collisions.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { httpLevelSnippets } from './corpus.mjs';

/** One app: about 900 bytes of http-level configuration, varied by `i` the way real fleets vary. */
export function appBlock(i) {
  const net = `10.${(i >> 8) & 255}.${i & 255}`;
  const keepalive = i % 3 === 0 ? '' : '    keepalive 16;\n';
  const connection = i % 4 === 0 ? '$http_connection' : '""';
  return `# app ${i}
upstream app_${i} {
    server ${net}.1:8080 max_fails=3 fail_timeout=10s;
    server ${net}.2:8080 backup;
${keepalive}}

server {
    listen 80;
    server_name app${i}.example.com www.app${i}.example.com;
    access_log /var/log/nginx/app${i}.access.log;
    client_max_body_size 10m;

    location / {
        proxy_pass http://app_${i};
        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header Connection ${connection};
        proxy_read_timeout 60s;
    }

    location /static/ {
        root /srv/app${i}/public;
        expires 7d;
        add_header Cache-Control "public";
    }

    location /api/ {
        proxy_pass http://127.0.0.1:${9000 + (i % 1000)};
        proxy_set_header Host $host;
    }
}
`;
}

function fill(bytes, piece) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = piece(i);
    parts.push(text);
    size += Buffer.byteLength(text);
  }
  return `events {}\nhttp {\n${parts.join('\n')}}\n`;
}

/** About `bytes` of generated apps in one nginx.conf. */
export function syntheticConfig(bytes) {
  return fill(bytes, appBlock);
}

/** About `bytes` of the valid corpus files, repeated inside one http{} (upstream names repeat between copies). */
export function corpusConfig(bytes) {
  const snippets = httpLevelSnippets();
  return fill(bytes, (i) => `# copy ${i}\n${snippets[i % snippets.length]}\n`);
}

/** nginx.conf including conf.d/*.conf, with `count` app files there. */
export function fanOutTree(dir, count) {
  mkdirSync(path.join(dir, 'conf.d'), { recursive: true });
  writeFileSync(path.join(dir, 'nginx.conf'), 'events {}\nhttp {\n    include conf.d/*.conf;\n}\n');
  for (let i = 0; i < count; i++) writeFileSync(path.join(dir, 'conf.d', `app${i}.conf`), appBlock(i));
}

/** `count` independent app files (no main config): each is its own root. */
export function independentTree(dir, count) {
  mkdirSync(path.join(dir, 'sites'), { recursive: true });
  for (let i = 0; i < count; i++) writeFileSync(path.join(dir, 'sites', `app${i}.conf`), appBlock(i));
}
