/**
 * nginx configuration, as nginx's own tokenizer (ngx_conf_read_token) reads it, plus Go-template actions
 * (`{{ ... }}`) so Dokku sigils, ingress-nginx and nginx-proxy templates parse too, and Jinja2 tags (`{% ... %}`,
 * `{# ... #}`; its `{{ ... }}` are read as above) for Ansible/Salt templates.
 *
 * Jinja delimiters are recognised in every file: `{%` cannot begin anything meaningful in nginx (`{` opens a block,
 * and no directive name starts with `%`), and a `{#` is a Jinja comment only when a `#}` closes it (before the next
 * `{#`, and inside a quoted string before the string's closing quote); otherwise it stays nginx's `{` and a `#` comment
 * (`server {# main`).
 *
 * The external scanner (src/scanner.c) lexes what a regular expression cannot: bare-word fragments (where `#`, `"`
 * and `}` are special only at the start of a token), the zero-width `_concat` that glues adjacent parts of one word,
 * string contents, `if` condition text, opaque Lua bodies and the inside of template actions.
 */

const TEMPLATE_ACTIONS = ($) => [$.template_control, $.template_expression, $.template_comment];

module.exports = grammar({
  name: 'nginx',

  externals: ($) => [
    $._concat,
    $._word_start,
    $._name_word_start,
    $._word_continue,
    $._double_quoted_content,
    $._single_quoted_content,
    $._condition_text,
    $.lua_code,
    $.template_keyword,
    $.template_pipeline,
    $._template_comment_text,
    $._same_line,
    $._jinja_keyword,
    $._jinja_pipeline,
    $._jinja_comment,
    $._error_sentinel,
  ],

  // nginx's white space: space, tab, CR and LF, nothing else (a form feed, a vertical tab or a no-break space is text,
  // so `\f#x` is a word, not a comment).
  extras: ($) => [/[ \t\r\n]/, $.comment],

  // No `word` (keyword extraction): the lexer tells `if` from `iffy` by longest match on its own, and with a keyword
  // token tree-sitter refuses to reuse a directive (which starts with a directive_name) in any parse state but the
  // one it was first parsed in, which made an incremental re-parse redo most statements of the block being edited.

  rules: {
    source_file: ($) => repeat($._statement),

    _statement: ($) =>
      choice(
        $.directive,
        alias($.if_directive, $.directive),
        alias($.lua_block_directive, $.directive),
        alias($.templated_directive, $.directive),
        ...TEMPLATE_ACTIONS($),
      ),

    directive: ($) =>
      seq(
        field('name', $._directive_head),
        repeat(field('argument', $._argument)),
        choice(';', field('body', $.block)),
      ),

    // `{{ $proxySetHeader }} {{ $k }} {{ $v }};` (ingress-nginx): a directive whose name is rendered. An expression
    // action opening a statement starts such a directive only when white space and a token that is not a control
    // action follow on the same line (`_same_line`); `{{ $x := ... }}` alone on its line stays an action.
    templated_directive: ($) =>
      seq(
        field('name', alias($._templated_name, $.word)),
        $._same_line,
        repeat(field('argument', $._argument)),
        choice(';', field('body', $.block)),
      ),

    _templated_name: ($) => seq($.template_expression),

    // In map/types/geo/split_clients (and geoip2-style module) bodies an entry starts with any token: `'' close;`,
    // `text/html html;`, `$geoip2_country_code source=$remote_addr ...;`.
    _directive_head: ($) => choice($.directive_name, alias($._name_word, $.word), $.string),

    if_directive: ($) => seq(field('name', alias('if', $.directive_name)), field('condition', $.condition), field('body', $.block)),

    lua_block_directive: ($) =>
      seq(field('name', alias($._lua_block_name, $.directive_name)), repeat(field('argument', $._argument)), field('lua', $.lua_block)),

    _lua_block_name: ($) => token(prec(1, /[A-Za-z_][A-Za-z0-9_]*_by_lua_block/)),

    block: ($) => seq('{', repeat($._statement), '}'),

    lua_block: ($) => seq('{', optional($.lua_code), '}'),

    condition: ($) =>
      seq('(', repeat(choice(alias($._condition_text, $.literal), $._variable_or_dollar, $.string, ...TEMPLATE_ACTIONS($))), ')'),

    _argument: ($) => choice($.word, $.string),

    word: ($) => seq($._word_first_part, repeat(seq($._concat, $._word_next_part))),

    _name_word: ($) => seq(choice(alias($._name_word_start, $.literal), $.variable), repeat(seq($._concat, $._word_next_part))),

    _word_first_part: ($) => choice(alias($._word_start, $.literal), $._variable_or_dollar, ...TEMPLATE_ACTIONS($)),

    _word_next_part: ($) => choice(alias($._word_continue, $.literal), $._variable_or_dollar, ...TEMPLATE_ACTIONS($)),

    // `${{ .MapName }}` renders to `$name`: the `$` before a template action is plain text.
    _variable_or_dollar: ($) => choice($.variable, alias('$', $.literal)),

    variable: ($) => token(choice(/\$[A-Za-z0-9_]+/, /\$\{[A-Za-z0-9_]+\}/)),

    string: ($) =>
      choice(
        seq('"', repeat(choice(alias($._double_quoted_content, $.literal), $._variable_or_dollar, ...TEMPLATE_ACTIONS($))), '"'),
        seq("'", repeat(choice(alias($._single_quoted_content, $.literal), $._variable_or_dollar, ...TEMPLATE_ACTIONS($))), "'"),
      ),

    directive_name: ($) => /[A-Za-z_][A-Za-z0-9_]*/,

    // Only LF ends a comment, as in nginx: a lone CR is comment text (`# a` CR `keepalive 16;` is all comment). The CRs
    // just before a line break (CRLF) or the end of the file are left out, as trailing white space.
    comment: ($) => token(seq('#', /([^\r\n]|\r+[^\r\n])*/)),

    // `{{ if X }}` (Go), or any Jinja tag `{% if X %}`, `{% endfor %}`, `{% set x = 1 %}` (its first word is the keyword).
    template_control: ($) =>
      choice(
        seq($._template_open, field('keyword', $.template_keyword), optional(field('pipeline', $.template_pipeline)), $._template_close),
        seq(
          $._jinja_open,
          optional(field('keyword', alias($._jinja_keyword, $.template_keyword))),
          optional(field('pipeline', alias($._jinja_pipeline, $.template_pipeline))),
          $._jinja_close,
        ),
      ),

    template_expression: ($) => seq($._template_open, optional(field('pipeline', $.template_pipeline)), $._template_close),

    // `{{/* ... */}}` (Go) or `{# ... #}` (Jinja: one token, so an unclosed `{#` can fall back to nginx's `{`).
    template_comment: ($) => choice(seq($._template_open, $._template_comment_text, $._template_close), $._jinja_comment),

    _template_open: ($) => choice('{{', '{{-'),

    _template_close: ($) => choice('}}', '-}}'),

    _jinja_open: ($) => choice('{%', '{%-', '{%+'),

    _jinja_close: ($) => choice('%}', '-%}', '+%}'),
  },
});
