// A directive's default as config text, from the value its module's merge/init function falls back to. Only what
// the source fixes is written: a default computed at run time (ngx_pagesize, NULL, a value built from other settings)
// or held by a custom handler is left out, never guessed.

/** Evaluates a small integer expression (numbers, casts, + - * /, parentheses, #defines); undefined otherwise. */
export function evaluateNumber(expression, defines, depth = 0) {
  if (depth > 20) return undefined;
  const text = expression.replace(/\(\s*(?:size_t|off_t|ngx_int_t|ngx_uint_t|ngx_msec_t|time_t|ngx_flag_t|u_char|int|unsigned|uint32_t)\s*\)/g, ' ');
  const compact = text.replace(/\s+/g, '');
  const tokens = compact.match(/0x[0-9a-fA-F]+|[0-9]+|[A-Za-z_]\w*|[-+*/()]/g) ?? [];
  // Anything outside this grammar (a function call, a string, a member access) is not a fixed number.
  if (tokens.join('') !== compact) return undefined;
  let pos = 0;
  const atom = () => {
    const t = tokens[pos++];
    if (t === undefined) return undefined;
    if (t === '(') {
      const v = sum();
      pos++;
      return v;
    }
    if (t === '-') {
      const v = atom();
      return v === undefined ? undefined : -v;
    }
    if (/^0x/.test(t)) return Number.parseInt(t, 16);
    if (/^[0-9]/.test(t)) return Number.parseInt(t, 10);
    if (t in defines) return evaluateNumber(defines[t], defines, depth + 1);
    return undefined;
  };
  const product = () => {
    let v = atom();
    while (tokens[pos] === '*' || tokens[pos] === '/') {
      const op = tokens[pos++];
      const r = atom();
      if (v === undefined || r === undefined) return undefined;
      v = op === '*' ? v * r : Math.floor(v / r);
    }
    return v;
  };
  const sum = () => {
    let v = product();
    while (tokens[pos] === '+' || tokens[pos] === '-') {
      const op = tokens[pos++];
      const r = product();
      if (v === undefined || r === undefined) return undefined;
      v = op === '+' ? v + r : v - r;
    }
    return v;
  };
  const result = sum();
  // Beyond 2^53 the number is a type's limit (NGX_MAX_OFF_T_VALUE: "no limit"), not a value to print.
  return pos === tokens.length && Number.isSafeInteger(result) ? result : undefined;
}

function size(bytes) {
  if (bytes === 0) return '0';
  if (bytes % (1024 * 1024 * 1024) === 0) return `${bytes / (1024 * 1024 * 1024)}g`;
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)}m`;
  if (bytes % 1024 === 0) return `${bytes / 1024}k`;
  return String(bytes);
}

function seconds(total) {
  if (total === 0) return '0s';
  if (total % 86400 === 0) return `${total / 86400}d`;
  if (total % 3600 === 0 && total >= 3600) return `${total / 3600}h`;
  if (total % 60 === 0 && total >= 300) return `${total / 60}m`;
  return `${total}s`;
}

function milliseconds(ms) {
  return ms % 1000 === 0 ? seconds(ms / 1000) : `${ms}ms`;
}

/** Words of a bitmask default `(NGX_CONF_BITMASK_SET|A|B)`, in the table's order. */
function bitmaskWords(expression, table) {
  const bits = new Set(expression.replace(/[()\s]/g, '').split('|').filter((b) => b !== 'NGX_CONF_BITMASK_SET'));
  if (bits.size === 0) return undefined;
  const words = table.values.filter((v) => bits.has(v.value)).map((v) => v.word);
  return words.length === bits.size ? words.join(' ') : undefined;
}

/**
 * `found` is a merge/init call ({ kind, args }), `command` the ngx_command_t entry, `table` its enum/bitmask table.
 * The handler (the command's `set`) says how the stored number reads back as config text.
 */
export function formatDefault(found, command, table, defines) {
  const [first] = found.args;
  if (first === undefined) return undefined;
  if (/NGX_CONF_UNSET|NULL/.test(first)) return undefined;
  switch (command.set) {
    case 'ngx_conf_set_flag_slot': {
      const v = evaluateNumber(first, defines);
      return v === 1 ? 'on' : v === 0 ? 'off' : undefined;
    }
    case 'ngx_conf_set_msec_slot': {
      const v = evaluateNumber(first, defines);
      return v === undefined || v < 0 ? undefined : milliseconds(v);
    }
    case 'ngx_conf_set_sec_slot': {
      const v = evaluateNumber(first, defines);
      return v === undefined || v < 0 ? undefined : seconds(v);
    }
    case 'ngx_conf_set_size_slot':
    case 'ngx_conf_set_off_slot': {
      const v = evaluateNumber(first, defines);
      return v === undefined || v < 0 ? undefined : size(v);
    }
    case 'ngx_conf_set_num_slot': {
      const v = evaluateNumber(first, defines);
      return v === undefined ? undefined : String(v);
    }
    case 'ngx_conf_set_str_slot': {
      const m = /^"([^"\\]*)"$/.exec(first.trim());
      return m && m[1] !== '' ? m[1] : undefined;
    }
    case 'ngx_conf_set_enum_slot': {
      if (!table) return undefined;
      const wanted = first.replace(/\s+/g, '');
      const byName = table.values.find((v) => v.value === wanted);
      if (byName) return byName.word;
      const n = evaluateNumber(first, defines);
      const byNumber = n === undefined ? undefined : table.values.find((v) => evaluateNumber(v.value, defines) === n);
      return byNumber?.word;
    }
    case 'ngx_conf_set_bitmask_slot':
      return table ? bitmaskWords(first, table) : undefined;
    case 'ngx_conf_set_bufs_slot': {
      const number = evaluateNumber(first, defines);
      const bytes = found.args[1] === undefined ? undefined : evaluateNumber(found.args[1], defines);
      return number === undefined || bytes === undefined ? undefined : `${number} ${size(bytes)}`;
    }
    default:
      return undefined;
  }
}
