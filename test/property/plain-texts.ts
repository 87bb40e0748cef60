// Generated nginx texts for the properties of the plain text reader (text-reader.test.ts) and of what reads as it
// does (plain-semantic-tokens.test.ts): configurations of tricky pieces, and character soup.
import fc from 'fast-check';

const NAMES = ['listen', 'server_name', 'proxy_pass', 'set', 'location', 'server', 'map', 'iffy', 'if_modified_since',
  '"quoted"', "'q'", '$var', 'a$b', 'abc$x', '*.example.com', '~^/x', '10.0.0.1', 'a-b$x', 'abc"x"', 'x}y', 'default'];
const ARGS = ['80', '"a b"', "'c'", '$host', '${x}y', 'a$b', 'http://u$x', '"$a$b"', '\\"esc', 'a\\;b', '^(.*)$', '(a|b)',
  '"unicode 😀"', 'é', '""', "''", 'a#b', '$', 'x$', '"$"', 'a"b', "a'b'c", '$1', '$a$b', 'a$', '$-', 'a\\{b', "'it\\'s'",
  '"a;b{c}#d"', '"${a}x"', '~*\\.(js|css)$', '"\\$x"', '$x"y"', '"a""b"', '"multi\nline"', 'a\\ b'];
const CONDITIONS = ['($x)', '($a ~ "b")', '(-f $f)', '( $a ) ', '($a ~ "(x) {")', '($a~"b c")', '($h ~* (a|b))', "($a = '')",
  '(!-e $f)', '($a = "${b}c")', '($x"y z")', '(# text)', '($a ~ a\\)b)'];
// A form feed is text for nginx (and the grammar), a lone CR inside a comment is comment text: both readers must agree.
const SPACE = [' ', '  ', '\t', ' # comment\n ', '\n', '\r\n', '\r', '\f', ' # a\rb;\n', ' #\r\r\n', ' \v#c '];

// Lua bodies, read by extent alone: braces count only outside Lua strings, comments and long brackets, where a template
// opener is Lua's too. A piece may leave a brace or a bracket open: then the tree has an error or the body runs on.
const LUA = ['ngx.say("}")', "ngx.say('{')", 'x = {a = 1}', '-- }', '--[[ } ]]', '--[==[ ]] } ]==]', '[[ {% if x %} ]]',
  '[=[ ]] ]=]', '"a\\"}"', '"line\n', '--[ }', '[= ', 't[1]', '{{ }}', 'a - b', '-', ']]', '\n', ' ', '{', '}'];
export const LUA_OPENERS = ['{{', '{%'];
const lua = fc
  .tuple(fc.constantFrom('content_by_lua_block', 'x_by_lua_block'), fc.constantFrom('', ' a', ' "b"'), fc.array(fc.constantFrom(...LUA), { maxLength: 5 }))
  .map(([name, a, body]) => `${name}${a} { ${body.join(' ')}}`);
const space = fc.constantFrom(...SPACE);
const args = fc.array(fc.tuple(space, fc.constantFrom(...ARGS)).map(([s, a]) => s + a), { maxLength: 3 }).map((a) => a.join(''));
const simple = fc.tuple(fc.constantFrom(...NAMES), args, fc.constantFrom('', ' ', '\t')).map(([n, a, s]) => `${n}${a}${s};`);
const { statement } = fc.letrec((tie) => ({
  statement: fc.oneof(
    { depthSize: 'small' },
    simple,
    fc.constant('# a comment\n'),
    lua,
    tie('block'),
    tie('condition'),
  ),
  block: fc
    .tuple(fc.constantFrom(...NAMES), args, space, fc.array(fc.tuple(space, tie('statement')), { maxLength: 4 }))
    .map(([n, a, s, body]) => `${n}${a}${s}{${body.map(([w, b]) => w + String(b)).join('')}${s}}`),
  condition: fc
    .tuple(space, fc.constantFrom(...CONDITIONS), fc.array(tie('statement'), { maxLength: 2 }))
    .map(([s, c, body]) => `if${s}${c} {\n${body.join('\n')}\n}`),
}));
export const config = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(space, statement), { maxLength: 6 }))
  .map(([bom, parts]) => (bom ? '\uFEFF' : '') + parts.map(([s, p]) => s + String(p)).join(''));
// Jinja2 delimiters too: a tag or a closed comment sends the text to the tree; an unclosed `{#` is nginx's brace and comment.
const SOUP = ['a', '_', '1', '$', '{', '}', ';', '"', "'", '\\', '#', '(', ')', ' ', '\n', '\r', '-', 'if ', '${', '$a', ' {', 'é',
  '{%', '%}', '{#', '#}', 'a_by_lua_block', '[[', ']]', '[=', '--', '-'];
export const soup = fc.array(fc.constantFrom(...SOUP), { minLength: 1, maxLength: 16 }).map((parts) => parts.join(''));

