// Renders Jinja2 fixtures for the real-nginx checks, with Python's jinja2 (as Ansible's template module would:
// trim_blocks on, and StrictUndefined so a fixture that needs a variable fails loudly instead of rendering a blank).
// Needs python3 with jinja2: `python3 -m pip install jinja2` (Debian: apt-get install -y python3-jinja2).
import { spawnSync } from 'node:child_process';

const RENDER = `
import sys, jinja2
env = jinja2.Environment(undefined=jinja2.StrictUndefined, trim_blocks=True, keep_trailing_newline=True)
sys.stdout.write(env.from_string(sys.stdin.read()).render())
`;

/** The rendered text; throws with the install command when python3 or jinja2 is missing, or with Jinja's error. */
export function renderJinja(template: string): string {
  const result = spawnSync('python3', ['-c', RENDER], { input: template, encoding: 'utf8' });
  if (result.error || /No module named '?jinja2/.test(result.stderr ?? '')) {
    throw new Error('python3 with jinja2 is needed to render Jinja2 fixtures: python3 -m pip install jinja2');
  }
  if (result.status !== 0) throw new Error(`jinja2 could not render the template: ${result.stderr.trim()}`);
  return result.stdout;
}
