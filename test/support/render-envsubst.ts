// Renders envsubst `.template` fixtures for the real-nginx checks with the real GNU envsubst, as the official Docker
// image's entrypoint does (20-envsubst-on-templates.sh): only the variables defined in the environment are
// substituted (their names are passed as the SHELL-FORMAT), so nginx's own `$host` and `${uri}` stay as written.
// Needs envsubst (Debian: apt-get install -y gettext-base).
import { spawnSync } from 'node:child_process';

/** The rendered text; throws with the install command when envsubst is missing. */
export function renderEnvsubst(template: string, environment: Readonly<Record<string, string>>): string {
  const format = Object.keys(environment)
    .map((name) => `\${${name}}`)
    .join(' ');
  const result = spawnSync('envsubst', [format], { input: template, encoding: 'utf8', env: { ...environment } });
  if (result.error) throw new Error('envsubst is needed to render .template fixtures: apt-get install -y gettext-base');
  if (result.status !== 0) throw new Error(`envsubst could not render the template: ${result.stderr.trim()}`);
  return result.stdout;
}
