// Tiny real rules for the core tests: they run through analyze()/fixAll() like registered rules do, on real parses.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { insertIntoBlock, insertLineAfter, replaceSpan } from '../../server/src/fixes/edits.js';
import type { Fix, SourceDocument } from '../../server/src/util/types.js';
import type { ConfigFile, Directive } from '../../server/src/model/types.js';
import type { Rule, RuleContext, RuleMeta, RuleState } from '../../server/src/analysis/rule-api.js';
import { allDirectives } from '../model/support.js';

export function docsFrom(root: string, ...relative: string[]): SourceDocument[] {
  return relative.map((r) => ({ path: path.join(root, r), text: readFileSync(path.join(root, r), 'utf8') }));
}

/** `unsafeFix` (from RuleState) marks the report's fix unsafe, as a rule's state does; `detail` is the message's. */
interface Report extends RuleState {
  message: string;
  detail?: string;
  fix?: Fix;
}

/** A test rule written as a report callback: each report becomes a state whose message and fix are its own. */
export function reportingRule(meta: RuleMeta, check: (context: RuleContext & { report(report: Report): void }) => void): Rule<Report> {
  return {
    meta,
    detect(context) {
      const states: Report[] = [];
      check({ ...context, report: (report) => states.push(report) });
      return states;
    },
    message: (state) => (state.detail === undefined ? { headline: state.message } : { headline: state.message, detail: state.detail }),
    fix: (state) => state.fix,
  };
}

type Reporter = (directive: Directive, report: (span: Directive['span'], fix?: Fix) => void) => void;

/** A rule that looks at every directive named `name` in every file of the workspace. */
export function directiveRule(id: string, name: string, check: Reporter): Rule<Report> {
  const meta = { id, description: `test rule ${id}`, defaultSeverity: 'warning', nginxVersions: '*', fixable: true } as const;
  return reportingRule(meta, (context) => {
    for (const file of context.workspace.files) {
      for (const directive of allDirectives(file.directives).filter((d) => d.name === name)) {
        check(directive, (span, fix) => context.report({ file: file.path, span, message: `${id} here`, fix }));
      }
    }
  });
}

function fixOf(title: string, ...edits: Fix['edits']): Fix {
  return { title, edits };
}

/** `listen 80;` -> `listen 8080;` (reported at the port). */
export const port8080 = directiveRule('port-8080', 'listen', (listen, report) => {
  const port = listen.args[0];
  if (port?.value === '80') report(port.span, fixOf('use 8080', replaceSpan(listen.file, port.span, '8080')));
});

/** `listen 80;` alone -> `listen 80 default_server;` (reported at the whole directive, so it comes first). */
export const defaultServer = directiveRule('default-server', 'listen', (listen, report) => {
  if (listen.args.length === 1 && listen.args[0]!.value === '80') {
    report(listen.span, fixOf('add default_server', replaceSpan(listen.file, listen.span, 'listen 80 default_server;')));
  }
});

/** A port below 1000 is multiplied by ten: 80 -> 800 -> 8000 takes two passes. */
export const timesTen = directiveRule('times-ten', 'listen', (listen, report) => {
  const port = listen.args[0];
  const value = Number(port?.value);
  if (port && value < 1000) report(port.span, fixOf('x10', replaceSpan(listen.file, port.span, String(value * 10))));
});

/** Its fix deletes the server block's closing brace: a fix that would break the file. */
export const braceBreaker = directiveRule('brace-breaker', 'server', (server, report) => {
  const end = server.span.endOffset;
  report(server.nameSpan, fixOf('break it', replaceSpan(server.file, { startOffset: end - 1, endOffset: end }, '')));
});

/** Every `listen` in a server without server_name asks for `server_name _;` at the top of the block (same edit twice). */
export const needsServerName = directiveRule('needs-server-name', 'listen', (listen, report) => {
  const server = listen.parent;
  if (!server || server.children.some((child) => child.name === 'server_name')) return;
  report(listen.span, fixOf('add server_name', insertIntoBlock(server, 'server_name _;', 'start')));
});

/** `keepalive_timeout 5s;` after each `listen` lacking one: a line insertion through the style-keeping helper. */
export const timeoutAfterListen = directiveRule('timeout-after-listen', 'listen', (listen, report) => {
  const siblings = listen.parent?.children ?? [];
  if (siblings.some((child) => child.name === 'keepalive_timeout')) return;
  report(listen.span, fixOf('add keepalive_timeout', insertLineAfter(listen, 'keepalive_timeout 5s;')));
});

/**
 * `listen 80;` -> `listen 8443;`, reported unsafe (it changes what clients reach): applied only with `unsafe`.
 * Its finding carries a detail, for the formatters and the language server.
 */
export const unsafePort = reportingRule(
  { id: 'unsafe-port', description: 'test rule unsafe-port', defaultSeverity: 'warning', nginxVersions: '*', fixable: true },
  (context) => {
    for (const file of context.workspace.files) {
      for (const listen of allDirectives(file.directives).filter((d) => d.name === 'listen')) {
        const port = listen.args[0];
        if (port?.value !== '80') continue;
        context.report({
          file: file.path,
          span: port.span,
          message: 'port 80 is plain HTTP',
          detail: 'clients reach this server unencrypted',
          unsafeFix: true,
          fix: fixOf('Listen on 8443 instead', replaceSpan(listen.file, port.span, '8443')),
        });
      }
    }
  },
);

/** Never settles: 80 <-> 81 forever. */
export const flipFlop = directiveRule('flip-flop', 'listen', (listen, report) => {
  const port = listen.args[0];
  if (!port) return;
  report(port.span, fixOf('flip', replaceSpan(listen.file, port.span, port.value === '80' ? '81' : '80')));
});

/** Reports with a fix that changes nothing. */
export const noOp = directiveRule('no-op', 'listen', (listen, report) => {
  report(listen.span, fixOf('nothing', replaceSpan(listen.file, listen.span, listen.file.text.slice(listen.span.startOffset, listen.span.endOffset))));
});

/**
 * On the `include` directive: one fix that edits the including file AND the first file it includes (whose part,
 * deleting its last character, breaks that file when `breakIncluded`).
 */
export function crossFileRule(breakIncluded: boolean): Rule<Report> {
  const meta = { id: 'cross-file', description: 'test', defaultSeverity: 'warning', nginxVersions: '*', fixable: true } as const;
  return reportingRule(meta, (context) => {
    {
      for (const [include, targets] of context.workspace.includes) {
        const target: ConfigFile | undefined = targets[0];
        if (!target || include.file.text.includes('# touched')) continue;
        const end = target.text.length;
        const targetEdit = breakIncluded
          ? { file: target.path, startOffset: end - 2, endOffset: end, newText: '' }
          : { file: target.path, startOffset: end, endOffset: end, newText: '# touched\n' };
        const includeEdit = { file: include.file.path, startOffset: 0, endOffset: 0, newText: '# touched\n' };
        context.report({ file: include.file.path, span: include.span, message: 'cross', fix: fixOf('both', includeEdit, targetEdit) });
      }
    }
  });
}
