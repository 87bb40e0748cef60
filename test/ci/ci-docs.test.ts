// docs/ci.md's examples: the GitLab job is run (its script in bash, npm install left out, nginx-keepalive being
// this checkout's CLI) and its report read back as GitLab would; the action example uses only inputs action.yml has.
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAction } from '../support/composite-action.js';
import { schemaErrors } from '../support/json-schema.js';
import { CLI, useTempTrees } from '../cli/helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
const page = readFileSync(path.join(repoRoot, 'docs/ci.md'), 'utf8');
const tree = useTempTrees();

/** The YAML blocks of the section under `## heading`. */
function yamlBlocks(heading: string): string[] {
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

describe('docs/ci.md', () => {
  it("runs the GitLab job's script and writes the codequality artifact it names", () => {
    const job = (yaml.load(yamlBlocks('GitLab CI')[0]!) as Record<string, { script: string[]; artifacts: { reports: { codequality: string } } }>)[
      'nginx-keepalive'
    ]!;
    const root = tree({
      'deploy/nginx/site.conf': 'upstream app {\n  server 127.0.0.1:3000;\n}\nserver {\n  location / { proxy_pass http://app; }\n}\n',
      'bin/nginx-keepalive': `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`,
    });
    chmodSync(path.join(root, 'bin/nginx-keepalive'), 0o755);
    const script = job.script.filter((line) => !line.startsWith('npm install'));
    expect(script).toHaveLength(1);
    writeFileSync(path.join(root, 'job.sh'), `${script.join('\n')}\n`);
    // GitLab runs the script with errexit: the findings' exit 1 fails the job, and the artifact is kept (when: always).
    const run = spawnSync('bash', ['-e', 'job.sh'], { cwd: root, encoding: 'utf8', env: { ...process.env, PATH: `${root}/bin:${process.env.PATH}` } });
    expect(run.status).toBe(1);
    const report = JSON.parse(readFileSync(path.join(root, job.artifacts.reports.codequality), 'utf8')) as unknown[];
    expect(report).toHaveLength(1);
    expect(schemaErrors(new URL('../cli/schemas/gitlab-codeclimate.json', import.meta.url), report[0])).toEqual([]);
    expect(report[0]).toMatchObject({ check_name: 'upstream-keepalive', location: { path: 'deploy/nginx/site.conf', lines: { begin: 1 } } });
  });

  it("uses only the action's inputs, and documents each of them", () => {
    const action = loadAction(path.join(repoRoot, 'action.yml'));
    const workflow = yaml.load(yamlBlocks('GitHub Actions')[0]!) as { jobs: Record<string, { steps: { uses?: string; with?: object }[] }> };
    const step = workflow.jobs['nginx-keepalive']!.steps.find((candidate) => candidate.uses?.startsWith('nginx-keepalive/nginx-keepalive@'))!;
    for (const input of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(input);
    for (const input of Object.keys(action.inputs)) expect(page).toContain(`| \`${input}\` |`);
  });
});
