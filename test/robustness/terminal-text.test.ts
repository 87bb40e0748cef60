// Config text reaches the terminal in code frames and in messages that quote it (an include's argument). A pull
// request can put escape sequences there: `\x1b]0;...\x07` retitles the terminal, `\x1b[2J` clears it, `\r` and bidi
// overrides make a line read as something else. None of it may reach stdout raw; frames stay aligned.
import { describe, expect, it } from 'vitest';
import { runCli, useTempTrees } from './support.js';

const tree = useTempTrees();
const ESC = '\x1b';
/** Every character a report must never print raw (tab excepted). */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const CONFIG =
  `http {\n` +
  `  upstream app${ESC}[2J { server 127.0.0.1:8081; }\n` +
  `  include "x${ESC}]0;pwned\x07\u202e.conf";\n` +
  `  server { location / { proxy_pass http://127.0.0.1:9000; } # \r${ESC}[31mfake\n  }\n` +
  `}\n`;

describe('config text with terminal control characters', () => {
  it('is printed with every control character made visible, in stylish and github output', () => {
    const root = tree({ 'nginx.conf': CONFIG });
    for (const format of ['stylish', 'github']) {
      const result = runCli(root, ['check', '--format', format, 'nginx.conf']);
      expect(result.status).toBe(1);
      expect(result.stdout).not.toMatch(UNSAFE);
      expect(result.stderr).not.toMatch(UNSAFE);
    }
  });

  it('keeps the caret under the span: one visible character per control character', () => {
    const root = tree({ 'nginx.conf': CONFIG });
    const lines = runCli(root, ['check', 'nginx.conf']).stdout.split('\n');
    const source = lines.find((line) => line.includes('upstream app'))!;
    const caret = lines[lines.indexOf(source) + 1]!;
    // The frame shows ESC as its control picture, and the underline starts under "app" and covers its 5 units.
    expect(source).toContain('upstream app\u241b[2J {');
    expect(caret.indexOf('^')).toBe(source.indexOf('app\u241b'));
    expect(caret.slice(caret.indexOf('^')).trimEnd()).toBe('^~~~~~~');
  });
});
