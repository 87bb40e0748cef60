// "nginx-keepalive: Show rule documentation": a quick pick of the rules (id and what each reports), then the rule's
// documentation page rendered as a Markdown preview. The pages come from the server (the ones `nginx-keepalive rule
// <id>` prints, embedded in its bundle, so they show offline) through a read-only virtual document
// (nginx-keepalive-rule:/<id>.md). Given a rule id as its argument (from a link or a keybinding), the command skips the
// quick pick.
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient/lib/common/api.js';
import { RULE_DOCUMENT_SCHEME, RULE_DOCUMENTATION_REQUEST, RULES_REQUEST, SHOW_RULE_DOCUMENTATION_COMMAND } from './ids.js';

/** As server/src/lsp/rule-documentation.ts answers them. */
interface RuleSummary {
  id: string;
  description: string;
  defaultSeverity: string;
  fixable: boolean;
}

const uriOf = (id: string) => vscode.Uri.from({ scheme: RULE_DOCUMENT_SCHEME, path: `/${id}.md` });

class RulePages implements vscode.TextDocumentContentProvider {
  constructor(private readonly client: LanguageClient) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = uri.path.replace(/^\//, '').replace(/\.md$/, '');
    const page = await this.client.sendRequest<{ markdown: string }>(RULE_DOCUMENTATION_REQUEST, { id });
    return page.markdown;
  }
}

async function pickRule(client: LanguageClient): Promise<string | undefined> {
  const rules = await client.sendRequest<RuleSummary[]>(RULES_REQUEST);
  const picked = await vscode.window.showQuickPick(
    rules.map((rule) => ({
      label: rule.id,
      description: `${rule.defaultSeverity}${rule.fixable ? ' · fixable' : ''}`,
      detail: rule.description,
    })),
    { title: 'nginx-keepalive: rule documentation', placeHolder: 'The rule whose documentation to show', matchOnDetail: true },
  );
  return picked?.label;
}

export function registerRuleDocumentation(client: LanguageClient): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(RULE_DOCUMENT_SCHEME, new RulePages(client)),
    vscode.commands.registerCommand(SHOW_RULE_DOCUMENTATION_COMMAND, async (ruleId?: unknown) => {
      const id = typeof ruleId === 'string' ? ruleId : await pickRule(client);
      if (!id) return;
      try {
        // Fetched first so an unknown id is a message, not a preview of an error.
        await vscode.workspace.openTextDocument(uriOf(id));
      } catch (error) {
        void vscode.window.showErrorMessage(`nginx-keepalive: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      await vscode.commands.executeCommand('markdown.showPreview', uriOf(id));
    }),
  );
}
