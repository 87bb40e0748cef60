// Runs a composite action's steps the way a GitHub runner does, for test/ci/action.test.ts: inputs take their
// defaults, `${{ }}` expressions in env, with and if are evaluated (the subset action.yml uses: inputs.*,
// steps.<id>.outputs.*, github.action_path, ==, != and &&; anything else throws), each `run:` step is written to a
// file and run with `bash --noprofile --norc -eo pipefail <file>` (GitHub's `shell: bash`) in GITHUB_WORKSPACE with
// the runner's variables, and its GITHUB_OUTPUT file is read back. A `uses:` step cannot run here: it is recorded
// with its evaluated `with:`. As on a runner, a failed step skips the later ones (action.yml has no `if: always()`).
// Composite actions get no INPUT_* variables (only JavaScript and Docker actions do), so none are set.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

// js-yaml is in node_modules through @vscode/vsce (not a direct devDependency), and ships no types.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface Step {
  name?: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface ActionDefinition {
  inputs: Record<string, { default?: string; required?: boolean }>;
  runs: { using: string; steps: Step[] };
}

export interface StepResult {
  name: string;
  /** Not run: its `if` was false, or an earlier step failed. */
  skipped: boolean;
  status?: number | null;
  stdout?: string;
  stderr?: string;
  outputs: Record<string, string>;
  /** A `uses:` step: the action and its evaluated inputs. */
  uses?: { action: string; with: Record<string, string> };
}

export interface ActionRun {
  steps: StepResult[];
  /** What a runner would mark the job as. */
  succeeded: boolean;
  summary: string;
}

export function loadAction(file: string): ActionDefinition {
  const action = yaml.load(readFileSync(file, 'utf8')) as ActionDefinition;
  if (action.runs?.using !== 'composite') throw new Error(`${file}: not a composite action`);
  return action;
}

export interface RunOptions {
  workspace: string;
  inputs: Record<string, string>;
  /** Put first on PATH (where the test's nginx-keepalive command is). */
  pathPrefix: string;
}

export function runAction(actionFile: string, options: RunOptions): ActionRun {
  const action = loadAction(actionFile);
  for (const name of Object.keys(options.inputs)) if (!(name in action.inputs)) throw new Error(`unknown input ${name}`);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, options.inputs[name] ?? spec.default ?? '']));
  const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'nginx-keepalive-runner-'));
  const summaryFile = path.join(runnerTemp, 'step_summary.md');
  writeFileSync(summaryFile, '');
  const context = { inputs, steps: {} as Record<string, { outputs: Record<string, string> }>, actionPath: path.dirname(actionFile) };
  const results: StepResult[] = [];
  let failed = false;
  action.runs.steps.forEach((step, index) => {
    const name = step.name ?? `step ${index + 1}`;
    if (failed || (step.if !== undefined && !evaluateCondition(step.if, context))) {
      results.push({ name, skipped: true, outputs: {} });
      return;
    }
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, substitute(String(value), context)]));
    if (step.uses !== undefined) {
      const evaluated = Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, substitute(String(value), context)]));
      results.push({ name, skipped: false, outputs: {}, uses: { action: step.uses, with: evaluated } });
      return;
    }
    if (step.shell !== 'bash' || step.run === undefined) throw new Error(`${name}: only "shell: bash" run steps are supported`);
    if (step.run.includes('${{')) throw new Error(`${name}: an expression inside a script (inputs go through env)`);
    const stepDir = path.join(runnerTemp, `step-${index}`);
    mkdirSync(stepDir);
    const script = path.join(stepDir, 'script.sh');
    const outputFile = path.join(stepDir, 'output');
    writeFileSync(script, step.run);
    writeFileSync(outputFile, '');
    const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: options.workspace,
      encoding: 'utf8',
      env: {
        PATH: `${options.pathPrefix}${path.delimiter}${process.env.PATH ?? ''}`,
        HOME: process.env.HOME ?? runnerTemp,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: options.workspace,
        GITHUB_ACTION_PATH: context.actionPath,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_ENV: path.join(stepDir, 'env'),
        RUNNER_TEMP: runnerTemp,
        RUNNER_OS: 'Linux',
        ...env,
      },
    });
    const outputs = readOutputs(outputFile);
    if (step.id !== undefined) context.steps[step.id] = { outputs };
    results.push({ name, skipped: false, status: run.status, stdout: run.stdout, stderr: run.stderr, outputs });
    failed = run.status !== 0;
  });
  const summary = readFileSync(summaryFile, 'utf8');
  rmSync(runnerTemp, { recursive: true, force: true });
  return { steps: results, succeeded: !failed, summary };
}

type Context = { inputs: Record<string, string>; steps: Record<string, { outputs: Record<string, string> }>; actionPath: string };

function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_whole, expression: string) => valueOf(expression, context));
}

function valueOf(expression: string, context: Context): string {
  const input = /^inputs\.([\w-]+)$/.exec(expression);
  if (input) return context.inputs[input[1]!] ?? '';
  const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
  if (output) return context.steps[output[1]!]?.outputs[output[2]!] ?? '';
  if (expression === 'github.action_path') return context.actionPath;
  const literal = /^'([^']*)'$/.exec(expression);
  if (literal) return literal[1]!;
  throw new Error(`unsupported expression: ${expression}`);
}

function evaluateCondition(condition: string, context: Context): boolean {
  const bare = condition.replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1');
  return bare.split('&&').every((clause) => {
    const operator = clause.includes(' == ') ? ' == ' : ' != ';
    const sides = clause.split(operator);
    if (sides.length !== 2) throw new Error(`unsupported condition: ${clause}`);
    // GitHub compares strings case-insensitively.
    const [left, right] = sides.map((side) => valueOf(side.trim(), context).toLowerCase());
    return operator === ' == ' ? left === right : left !== right;
  });
}

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT. */
function readOutputs(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const outputs: Record<string, string> = {};
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const block = /^([\w-]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, index + 1);
      outputs[block[1]!] = lines.slice(index + 1, end).join('\n');
      index = end;
      continue;
    }
    const equals = line.indexOf('=');
    if (equals > 0) outputs[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return outputs;
}
