import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../server/src/fixes/edits.js';
import { upstreams } from '../../server/src/analysis/upstreams.js';
import { insertAfterMembers, lastMember } from '../../server/src/fixes/upstream-members.js';
import { checkTree, source } from '../analysis/support.js';

/** The main file's text after inserting `keepalive 16;` after the first upstream's members. */
async function inserted(files: Record<string, string>): Promise<string | undefined> {
  const main = Object.keys(files)[0]!;
  const { root, workspace } = await checkTree(files);
  const edit = insertAfterMembers(workspace, upstreams(workspace)[0]!, 'keepalive 16;');
  if (!edit) return undefined;
  expect(edit.file).toBe(path.join(root, main));
  return applyEdits(files[main]!, [edit]);
}

describe('insertAfterMembers', () => {
  it('goes after the last server, at its indentation', async () => {
    expect(await inserted({ 'a.conf': 'upstream app {\n    server a;\n    server b;\n    # end\n}\n' })).toBe(
      'upstream app {\n    server a;\n    server b;\n    keepalive 16;\n    # end\n}\n',
    );
  });

  it('goes after a balancer written after the servers', async () => {
    expect(await inserted({ 'a.conf': 'upstream app {\n\tserver a;\n\tleast_conn;\n\tzone app 64k;\n}\n' })).toBe(
      'upstream app {\n\tserver a;\n\tleast_conn;\n\tkeepalive 16;\n\tzone app 64k;\n}\n',
    );
  });

  it("goes after the template end closing a range of servers (Dokku), not inside the range", async () => {
    const sigil = [
      'upstream {{ $.APP }}-{{ $upstream_port }} {',
      '{{ range $listeners := $.DOKKU_APP_WEB_LISTENERS | split " " }}',
      '{{ $listener_list := $listeners | split ":" }}',
      '{{ $listener_ip := index $listener_list 0 }}',
      '  server {{ $listener_ip }}:{{ $upstream_port }};{{ end }}',
      '}',
      '',
    ].join('\n');
    expect(await inserted({ 'nginx.conf.sigil': sigil })).toBe(
      sigil.replace(';{{ end }}\n}', ';{{ end }}\n  keepalive 16;\n}'),
    );
  });

  it('goes after the include that brings the servers, in the block itself', async () => {
    const files = { 'nginx.conf': 'upstream app {\n  include members.conf;\n}\n', 'members.conf': 'server a;\nserver b;\n' };
    expect(await inserted(files)).toBe('upstream app {\n  include members.conf;\n  keepalive 16;\n}\n');
  });

  it('stays on the line of a one-line block', async () => {
    expect(await inserted({ 'a.conf': 'upstream app { server a; }\n' })).toBe('upstream app { server a; keepalive 16; }\n');
  });

  it('goes at the end of a block without members', async () => {
    expect(await inserted({ 'a.conf': 'upstream app {\n  zone app 64k;\n}\n' })).toBe(
      'upstream app {\n  zone app 64k;\n  keepalive 16;\n}\n',
    );
  });
});

describe('lastMember', () => {
  it('follows nginx order across includes', async () => {
    const { workspace } = await checkTree({
      'nginx.conf': 'upstream app {\n  hash $x;\n  include members.conf;\n}\n',
      'members.conf': 'server a;\n',
    });
    expect(source(lastMember(upstreams(workspace)[0]!)!)).toBe('server a;');
  });
});
