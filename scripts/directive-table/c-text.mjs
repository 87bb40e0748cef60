// Low-level reading of nginx C sources: comments blanked out, preprocessor branches resolved line by line, and the
// brace/comma splitting the table parsers need. No regular expression here runs over more than one line's worth of
// unbounded text with nested quantifiers; scans are hand-written loops.

/**
 * The text with comments and the contents of string literals' surroundings preserved: every comment becomes spaces
 * (newlines kept, so line numbers stay right). String and character literals are left as they are.
 */
export function blankComments(text) {
  const out = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let j = i; j < stop; j++) out.push(text[j] === '\n' ? '\n' : ' ');
      i = stop;
    } else if (c === '/' && next === '/') {
      let j = i;
      while (j < n && text[j] !== '\n') {
        out.push(' ');
        j++;
      }
      i = j;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      const stop = Math.min(n, j + 1);
      out.push(text.slice(i, stop));
      i = stop;
    } else {
      out.push(c);
      i++;
    }
  }
  return out.join('');
}

/** Joins backslash-continued preprocessor lines into their first line, keeping the line count (continuations go blank). */
function joinContinuations(lines) {
  const joined = lines.slice();
  for (let i = 0; i < joined.length; i++) {
    let j = i;
    while (joined[i].endsWith('\\') && j + 1 < joined.length) {
      j++;
      joined[i] = joined[i].slice(0, -1) + ' ' + joined[j];
      joined[j] = '';
    }
  }
  return joined;
}

/**
 * Three-valued evaluation of a preprocessor condition: true, false, or undefined when it depends on something the
 * build facts do not say. `facts.defined` maps macro names to numbers (1 for "defined and true"), `facts.undefinedNames`
 * lists macros known to be absent.
 */
export function evaluateCondition(expression, facts) {
  const tokens = [];
  let i = 0;
  const s = expression;
  while (i < s.length) {
    const c = s[i];
    if (c === ' ' || c === '\t') i++;
    else if ('()!'.includes(c) && !(c === '!' && s[i + 1] === '=')) tokens.push(c), i++;
    else if (s.startsWith('&&', i) || s.startsWith('||', i) || s.startsWith('>=', i) || s.startsWith('<=', i) || s.startsWith('==', i) || s.startsWith('!=', i)) tokens.push(s.slice(i, i + 2)), (i += 2);
    else if (c === '<' || c === '>') tokens.push(c), i++;
    else {
      let j = i;
      while (j < s.length && /[A-Za-z0-9_]/.test(s[j])) j++;
      if (j === i) return undefined; // an operator this evaluator does not know
      tokens.push(s.slice(i, j));
      i = j;
    }
  }
  let pos = 0;
  const peek = () => tokens[pos];
  const value = (name) => {
    if (/^[0-9]+L?$/.test(name)) return Number.parseInt(name, 10);
    if (/^0x[0-9a-fA-F]+$/.test(name)) return Number.parseInt(name, 16);
    if (name in facts.defined) return facts.defined[name];
    if (facts.undefinedNames.has(name)) return 0;
    return undefined;
  };
  const and3 = (a, b) => (a === false || b === false ? false : a === undefined || b === undefined ? undefined : true);
  const or3 = (a, b) => (a === true || b === true ? true : a === undefined || b === undefined ? undefined : false);
  const truth = (v) => (v === undefined ? undefined : typeof v === 'boolean' ? v : v !== 0);
  function primary() {
    const t = tokens[pos++];
    if (t === '!') {
      const v = truth(primary());
      return v === undefined ? undefined : !v;
    }
    if (t === '(') {
      const v = orExpr();
      pos++; // ')'
      return v;
    }
    if (t === 'defined') {
      const paren = peek() === '(';
      if (paren) pos++;
      const name = tokens[pos++];
      if (paren) pos++;
      if (name in facts.defined) return true;
      if (facts.undefinedNames.has(name)) return false;
      return undefined;
    }
    return value(t);
  }
  function comparison() {
    const left = primary();
    const op = peek();
    if (!['>=', '<=', '==', '!=', '<', '>'].includes(op)) return left;
    pos++;
    const right = primary();
    if (typeof left !== 'number' || typeof right !== 'number') return undefined;
    return { '>=': left >= right, '<=': left <= right, '==': left === right, '!=': left !== right, '<': left < right, '>': left > right }[op];
  }
  function andExpr() {
    let v = truth(comparison());
    while (peek() === '&&') {
      pos++;
      v = and3(v, truth(comparison()));
    }
    return v;
  }
  function orExpr() {
    let v = andExpr();
    while (peek() === '||') {
      pos++;
      v = or3(v, andExpr());
    }
    return v;
  }
  const result = orExpr();
  return pos === tokens.length ? result : undefined;
}

/**
 * Resolves #if/#ifdef/#ifndef/#elif/#else/#endif for the build the facts describe. Returns the lines, with dropped
 * branches and preprocessor lines blanked, and per line the conditions still in force that the facts could not decide
 * or that hold a build option (kept for marking entries, e.g. `NGX_HTTP_SSL`).
 */
export function resolvePreprocessor(text, facts) {
  const lines = joinContinuations(text.split('\n'));
  const kept = [];
  const conditionsAt = [];
  // Each frame: { active, taken, label } — active: this branch's lines are kept; taken: an earlier branch was true.
  const stack = [];
  const allActive = () => stack.every((f) => f.active);
  const labels = () => stack.filter((f) => f.label).map((f) => f.label);
  const frame = (expr) => {
    const v = evaluateCondition(expr, facts);
    const isBuildOption = facts.markedNames.some((name) => expr.includes(name));
    // An undecidable condition keeps its branch (the first one) and is recorded; a known one is recorded only when it
    // names a build option worth showing (SSL, PCRE, ...).
    return { value: v, label: v === undefined || isBuildOption ? expr : undefined };
  };
  for (const raw of lines) {
    const line = raw.trim();
    const m = /^#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$/.exec(line);
    if (!m) {
      kept.push(allActive() ? raw : '');
      conditionsAt.push(labels());
      continue;
    }
    const [, kind, restRaw] = m;
    const rest = restRaw.trim();
    if (kind === 'if' || kind === 'ifdef' || kind === 'ifndef') {
      const expr = kind === 'if' ? rest : kind === 'ifdef' ? `defined(${rest})` : `!defined(${rest})`;
      const { value, label } = frame(expr);
      stack.push({ active: value !== false, taken: value !== false, decided: value !== undefined, label });
    } else if (kind === 'elif') {
      const top = stack[stack.length - 1];
      if (top) {
        const { value, label } = frame(rest);
        top.active = !top.taken && value !== false;
        top.taken = top.taken || value !== false;
        top.label = label;
      }
    } else if (kind === 'else') {
      const top = stack[stack.length - 1];
      if (top) {
        top.active = !top.taken;
        top.taken = true;
        top.label = top.label ? `!(${top.label})` : undefined;
      }
    } else if (kind === 'endif') {
      stack.pop();
    }
    kept.push('');
    conditionsAt.push(labels());
  }
  return { lines: kept, conditionsAt };
}

/** Index of the bracket closing the one at `open` (`{`/`(`), skipping string literals; -1 when unbalanced. */
export function matchingClose(text, open) {
  const opener = text[open];
  const closer = opener === '{' ? '}' : ')';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
    } else if (c === opener) depth++;
    else if (c === closer) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Splits at top-level commas (outside (), {} and strings), trimmed. */
export function splitTopLevel(text) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
    } else if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last) parts.push(last);
  return parts;
}

/** The `{ ... }` groups directly inside a table body, each with its offset in the body. */
export function topLevelGroups(body) {
  const groups = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"' || c === "'") {
      i++;
      while (i < body.length && body[i] !== c) i += body[i] === '\\' ? 2 : 1;
    } else if (c === '{') {
      const close = matchingClose(body, i);
      if (close < 0) break;
      groups.push({ text: body.slice(i + 1, close), offset: i });
      i = close;
    }
  }
  return groups;
}

/** The C string a `ngx_string("...")` names (adjacent literals joined, simple escapes read), or undefined. */
export function ngxStringValue(expression) {
  const m = /^ngx_string\s*\((.*)\)$/s.exec(expression.trim());
  if (!m) return undefined;
  return cStringValue(m[1]);
}

/** Reads one or more adjacent C string literals; undefined when the text is not only literals. */
export function cStringValue(text) {
  let out = '';
  let i = 0;
  const s = text.trim();
  let any = false;
  while (i < s.length) {
    if (/\s/.test(s[i])) {
      i++;
      continue;
    }
    if (s[i] !== '"') return undefined;
    any = true;
    i++;
    while (i < s.length && s[i] !== '"') {
      if (s[i] === '\\') {
        const e = s[i + 1];
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        i += 2;
      } else out += s[i++];
    }
    i++;
  }
  return any ? out : undefined;
}
