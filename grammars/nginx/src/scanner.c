// External scanner for the nginx grammar. It is stateless: every decision depends only on the characters ahead.
//
// nginx's tokenizer treats `#`, quotes and `}` as special only at the start of a token, lets `\` escape anything,
// and ends a bare word at white space, `;` or `{`. Regular expressions in grammar.js cannot express "special only at
// the start", nor the peeking needed for `$name` vs a lone `$`, `{{` vs `{`, or the `)` that closes an `if`
// condition, so those tokens are produced here. It also lexes the inside of Jinja tags (`{% ... %}`) and whole Jinja
// comments (`{# ... #}`); see grammar.js for when `{#` is one.

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <string.h>

enum TokenType {
  CONCAT,
  WORD_START,
  NAME_WORD_START,
  WORD_CONTINUE,
  DOUBLE_QUOTED_CONTENT,
  SINGLE_QUOTED_CONTENT,
  CONDITION_TEXT,
  LUA_CODE,
  TEMPLATE_KEYWORD,
  TEMPLATE_PIPELINE,
  TEMPLATE_COMMENT_TEXT,
  SAME_LINE,
  JINJA_KEYWORD,
  JINJA_PIPELINE,
  JINJA_COMMENT,
  ERROR_SENTINEL,
};

// nginx's white space (ngx_conf_read_token): a form feed or vertical tab is text there.
static bool is_space(int32_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static bool is_variable_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_identifier_start(int32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

static void advance(TSLexer *lexer) { lexer->advance(lexer, false); }

static void skip_space(TSLexer *lexer) {
  while (is_space(lexer->lookahead)) lexer->advance(lexer, true);
}

// At `$`: consumes it. Returns true when a variable (`$name`, `${name}`) starts here, so the caller must end its
// token before the `$` (already marked). A `$` followed by anything else is ordinary text (a regex anchor, say).
static bool dollar_starts_variable(TSLexer *lexer) {
  advance(lexer);
  return is_variable_char(lexer->lookahead) || lexer->lookahead == '{';
}

enum JinjaCommentEnd { COMMENT_CLOSED, COMMENT_UNCLOSED, COMMENT_RESTARTED };

// After `{#`: consumes the comment up to and including its `#}` (COMMENT_CLOSED). Jinja comments do not nest, so a
// comment is unclosed when another `{#` comes first (COMMENT_RESTARTED, the lexer past that `{#`) or the text ends;
// inside a quoted string (`quote` not 0) also when the string's closing quote comes first (the lexer left at the
// quote). Stopping at the next `{#` keeps a text of many unclosed `{#` linear.
static enum JinjaCommentEnd scan_jinja_comment_rest(TSLexer *lexer, int32_t quote) {
  for (;;) {
    if (lexer->eof(lexer)) return COMMENT_UNCLOSED;
    int32_t c = lexer->lookahead;
    if (quote != 0 && c == quote) return COMMENT_UNCLOSED;
    advance(lexer);
    if (c == '#' && lexer->lookahead == '}') {
      advance(lexer);
      return COMMENT_CLOSED;
    }
    if (c == '{' && lexer->lookahead == '#') {
      advance(lexer);
      return COMMENT_RESTARTED;
    }
    if (c == '\\' && quote != 0 && !lexer->eof(lexer)) advance(lexer);
  }
}

// At `{`: a whole Jinja comment `{# ... #}` (trim markers included) when one is closed here.
static bool scan_jinja_comment(TSLexer *lexer) {
  if (lexer->lookahead != '{') return false;
  advance(lexer);
  if (lexer->lookahead != '#') return false;
  advance(lexer);
  if (scan_jinja_comment_rest(lexer, 0) != COMMENT_CLOSED) return false;
  lexer->mark_end(lexer);
  lexer->result_symbol = JINJA_COMMENT;
  return true;
}

// A fragment of a bare word. At the start of a token `#`, quotes and `}` belong to other tokens; after a `_concat`
// they are plain characters, as in nginx (`a#b` is one word).
static bool scan_word_fragment(TSLexer *lexer, bool at_token_start, bool *is_identifier) {
  int32_t first = lexer->lookahead;
  if (at_token_start && (first == '#' || first == '"' || first == '\'' || first == '}')) return false;
  bool has_content = false;
  *is_identifier = is_identifier_start(first);
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == 0 && lexer->eof(lexer)) break;
    if (is_space(c) || c == ';' || c == '{') break;
    if (c == '$') {
      if (dollar_starts_variable(lexer)) break;
      *is_identifier = false;
      has_content = true;
      lexer->mark_end(lexer);
      continue;
    }
    if (c == '\\') {
      advance(lexer);
      if (!lexer->eof(lexer)) advance(lexer);
      *is_identifier = false;
    } else {
      if (!is_variable_char(c)) *is_identifier = false;
      advance(lexer);
    }
    has_content = true;
    lexer->mark_end(lexer);
  }
  return has_content;
}

// Contents of a quoted string up to the closing quote, a variable or a template action (a closed Jinja comment at the
// start is returned whole, as JINJA_COMMENT). An unterminated string runs to the end of the file, as in nginx; the
// grammar then reports the missing quote.
static bool scan_quoted_content(TSLexer *lexer, int32_t quote) {
  bool has_content = false;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == 0 && lexer->eof(lexer)) break;
    if (c == quote) break;
    if (c == '$') {
      if (dollar_starts_variable(lexer)) break;
    } else if (c == '{') {
      advance(lexer);
      if (lexer->lookahead == '{' || lexer->lookahead == '%') break;
      if (lexer->lookahead == '#') {
        // A Jinja comment ends the content before its `{`; an unclosed `{#` is content (up to the quote at most).
        advance(lexer);
        enum JinjaCommentEnd end;
        while ((end = scan_jinja_comment_rest(lexer, quote)) == COMMENT_RESTARTED) {
        }
        if (end == COMMENT_CLOSED) {
          if (has_content) break;
          lexer->mark_end(lexer);
          lexer->result_symbol = JINJA_COMMENT;
          return true;
        }
      }
    } else if (c == '\\') {
      advance(lexer);
      if (!lexer->eof(lexer)) advance(lexer);
    } else {
      advance(lexer);
    }
    has_content = true;
    lexer->mark_end(lexer);
  }
  return has_content;
}

// Text of an `if (...)` condition between variables and strings. The condition ends at the last `)` before the `{`
// of the block; a `)` followed by anything else belongs to the condition (regex groups, say).
static bool scan_condition_text(TSLexer *lexer) {
  skip_space(lexer);
  bool has_content = false;
  bool after_space = true;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == 0 && lexer->eof(lexer)) break;
    if (c == ';' || c == '{') break;
    if ((c == '"' || c == '\'') && after_space) break;
    if (c == '$') {
      if (dollar_starts_variable(lexer)) break;
      has_content = true;
      after_space = false;
      lexer->mark_end(lexer);
      continue;
    }
    if (c == ')') {
      advance(lexer);
      bool spaced = is_space(lexer->lookahead);
      while (is_space(lexer->lookahead)) advance(lexer);
      if (lexer->lookahead == '{' || lexer->eof(lexer)) break;
      has_content = true;
      after_space = spaced;
      lexer->mark_end(lexer);
      continue;
    }
    if (is_space(c)) {
      advance(lexer);
      after_space = true;
      continue;
    }
    if (c == '\\') {
      advance(lexer);
      if (!lexer->eof(lexer)) advance(lexer);
    } else {
      advance(lexer);
    }
    after_space = false;
    has_content = true;
    lexer->mark_end(lexer);
  }
  return has_content;
}

static void skip_lua_long_bracket_body(TSLexer *lexer, int level) {
  for (;;) {
    if (lexer->eof(lexer)) return;
    int32_t c = lexer->lookahead;
    advance(lexer);
    if (c != ']') continue;
    int closing = 0;
    while (lexer->lookahead == '=') {
      closing++;
      advance(lexer);
    }
    if (closing == level && lexer->lookahead == ']') {
      advance(lexer);
      return;
    }
  }
}

// At `[`: consumes a Lua long bracket (`[[`, `[==[`) and its body when one starts here.
static void scan_lua_bracket(TSLexer *lexer) {
  advance(lexer);
  int level = 0;
  while (lexer->lookahead == '=') {
    level++;
    advance(lexer);
  }
  if (lexer->lookahead == '[') {
    advance(lexer);
    skip_lua_long_bracket_body(lexer, level);
  }
}

static void scan_lua_quoted(TSLexer *lexer, int32_t quote) {
  advance(lexer);
  while (!lexer->eof(lexer) && lexer->lookahead != quote && lexer->lookahead != '\n') {
    if (lexer->lookahead == '\\') advance(lexer);
    if (!lexer->eof(lexer)) advance(lexer);
  }
  if (lexer->lookahead == quote) advance(lexer);
}

static void scan_lua_comment(TSLexer *lexer) {
  if (lexer->lookahead == '[') {
    scan_lua_bracket(lexer);
    return;
  }
  while (!lexer->eof(lexer) && lexer->lookahead != '\n') advance(lexer);
}

// The body of a `*_by_lua_block`: Lua source up to the `}` that balances the block's `{`. Braces inside Lua strings,
// comments and long brackets do not count.
static bool scan_lua_code(TSLexer *lexer) {
  skip_space(lexer);
  int depth = 0;
  bool has_content = false;
  for (;;) {
    if (lexer->eof(lexer)) break;
    int32_t c = lexer->lookahead;
    if (c == '}' && depth == 0) break;
    if (c == '{') {
      depth++;
      advance(lexer);
    } else if (c == '}') {
      depth--;
      advance(lexer);
    } else if (c == '"' || c == '\'') {
      scan_lua_quoted(lexer, c);
    } else if (c == '[') {
      scan_lua_bracket(lexer);
    } else if (c == '-') {
      advance(lexer);
      if (lexer->lookahead == '-') {
        advance(lexer);
        scan_lua_comment(lexer);
      }
    } else {
      advance(lexer);
    }
    has_content = true;
    if (!is_space(c)) lexer->mark_end(lexer);
  }
  return has_content;
}

static const char *const TEMPLATE_KEYWORDS[] = {
    "if", "else", "range", "with", "end", "define", "block", "template", "break", "continue",
};

// Reads an identifier into `word` (truncated), returning its length.
static size_t read_identifier(TSLexer *lexer, char *word, size_t capacity) {
  size_t length = 0;
  while (is_variable_char(lexer->lookahead)) {
    if (length < capacity - 1) word[length++] = (char)lexer->lookahead;
    advance(lexer);
  }
  word[length] = '\0';
  return length;
}

static bool is_template_keyword(const char *word) {
  for (size_t i = 0; i < sizeof(TEMPLATE_KEYWORDS) / sizeof(TEMPLATE_KEYWORDS[0]); i++) {
    if (strcmp(word, TEMPLATE_KEYWORDS[i]) == 0) return true;
  }
  return false;
}

static void scan_go_quoted(TSLexer *lexer, int32_t quote) {
  advance(lexer);
  while (!lexer->eof(lexer) && lexer->lookahead != quote) {
    if (quote != '`' && lexer->lookahead == '\n') return;
    if (quote != '`' && lexer->lookahead == '\\') advance(lexer);
    if (!lexer->eof(lexer)) advance(lexer);
  }
  if (lexer->lookahead == quote) advance(lexer);
}

// The pipeline of a template action, up to `}}` or ` -}}`, with Go string literals (which may hold `}}`) skipped
// whole. Trailing white space is left out of the token.
static bool scan_template_pipeline(TSLexer *lexer, bool has_content) {
  for (;;) {
    if (lexer->eof(lexer)) break;
    int32_t c = lexer->lookahead;
    if (c == '"' || c == '`' || c == '\'') {
      scan_go_quoted(lexer, c);
    } else if (c == '}') {
      advance(lexer);
      if (lexer->lookahead == '}') break;
    } else if (c == '-') {
      // `-}}` trims white space after the action; a dash followed by anything else is part of the pipeline.
      advance(lexer);
      if (lexer->lookahead == '}') {
        advance(lexer);
        if (lexer->lookahead == '}') break;
      }
    } else if (is_space(c)) {
      advance(lexer);
      continue;
    } else {
      advance(lexer);
    }
    has_content = true;
    lexer->mark_end(lexer);
  }
  return has_content;
}

// After `{{` and blanks, at `/`: a Go comment's text `/* ... */`. An unclosed comment takes the rest of the file, as
// in Go's text/template (which fails with "unclosed comment": nothing after it is rendered); the grammar then reports
// the missing `}}`. Declining it instead made every later `{{/*` read to the end of the file again (quadratic).
static bool scan_template_comment(TSLexer *lexer) {
  advance(lexer);
  if (lexer->lookahead != '*') return false;
  advance(lexer);
  for (;;) {
    if (lexer->eof(lexer)) {
      lexer->mark_end(lexer);
      return true;
    }
    int32_t c = lexer->lookahead;
    advance(lexer);
    if (c == '*' && lexer->lookahead == '/') {
      advance(lexer);
      lexer->mark_end(lexer);
      return true;
    }
  }
}

static bool scan_template_inside(TSLexer *lexer, const bool *valid_symbols) {
  skip_space(lexer);
  if (lexer->lookahead == '/' && valid_symbols[TEMPLATE_COMMENT_TEXT]) {
    if (scan_template_comment(lexer)) {
      lexer->result_symbol = TEMPLATE_COMMENT_TEXT;
      return true;
    }
    return false;
  }
  bool has_content = false;
  if (valid_symbols[TEMPLATE_KEYWORD] && is_identifier_start(lexer->lookahead)) {
    char word[16];
    read_identifier(lexer, word, sizeof(word));
    lexer->mark_end(lexer);
    has_content = true;
    if (is_template_keyword(word)) {
      lexer->result_symbol = TEMPLATE_KEYWORD;
      return true;
    }
  }
  if (!valid_symbols[TEMPLATE_PIPELINE]) return false;
  lexer->result_symbol = TEMPLATE_PIPELINE;
  return scan_template_pipeline(lexer, has_content);
}

// The rest of a Jinja tag after its keyword, up to `%}`, `-%}` or `+%}`, with Jinja string literals (which may hold
// `%}`) skipped whole; a string does not run past its line. Trailing white space is left out of the token.
static bool scan_jinja_pipeline(TSLexer *lexer, bool has_content) {
  for (;;) {
    if (lexer->eof(lexer)) break;
    int32_t c = lexer->lookahead;
    if (c == '"' || c == '\'') {
      scan_go_quoted(lexer, c);
    } else if (c == '%') {
      advance(lexer);
      if (lexer->lookahead == '}') break;
    } else if (c == '-' || c == '+') {
      advance(lexer);
      if (lexer->lookahead == '%') {
        advance(lexer);
        if (lexer->lookahead == '}') break;
      }
    } else if (is_space(c)) {
      advance(lexer);
      continue;
    } else {
      advance(lexer);
    }
    has_content = true;
    lexer->mark_end(lexer);
  }
  return has_content;
}

// Inside `{% ... %}`: the tag's first word (any identifier: `if`, `endfor`, `set`, `include`...), then the rest.
static bool scan_jinja_inside(TSLexer *lexer, const bool *valid_symbols) {
  skip_space(lexer);
  if (valid_symbols[JINJA_KEYWORD] && is_identifier_start(lexer->lookahead)) {
    while (is_variable_char(lexer->lookahead)) advance(lexer);
    lexer->mark_end(lexer);
    lexer->result_symbol = JINJA_KEYWORD;
    return true;
  }
  if (!valid_symbols[JINJA_PIPELINE]) return false;
  lexer->result_symbol = JINJA_PIPELINE;
  return scan_jinja_pipeline(lexer, false);
}

enum ConcatResult { NO_CONCAT, CONCAT_FOUND, LEXER_MOVED };

// Zero width: the next character continues the current word. Peeking past a lone `{` (a block opening) moves the
// lexer, after which no other token may be scanned in this call.
static enum ConcatResult scan_concat(TSLexer *lexer) {
  int32_t c = lexer->lookahead;
  if (lexer->eof(lexer) || is_space(c) || c == ';') return NO_CONCAT;
  lexer->mark_end(lexer);
  if (c == '{') {
    advance(lexer);
    int32_t next = lexer->lookahead;
    // `{{`, `{%` and a closed `{#...#}` continue the word; a lone `{` (or an unclosed `{#`) opens a block.
    if (next == '#') {
      advance(lexer);
      if (scan_jinja_comment_rest(lexer, 0) != COMMENT_CLOSED) return LEXER_MOVED;
    } else if (next != '{' && next != '%') {
      return LEXER_MOVED;
    }
  }
  lexer->result_symbol = CONCAT;
  return CONCAT_FOUND;
}

enum SameLineResult { NOT_SAME_LINE, SAME_LINE_FOUND, SAME_LINE_LEXER_MOVED };

// Zero width, after an expression action that opens a statement: found when `;` or white space and then another
// token of the same statement follow on this line. A control action (`{{ end }}`) there closes a template scope
// instead. The blanks are skipped (not consumed), so on NOT_SAME_LINE the caller can still lex the next statement's
// first token in this call: falling back to the internal lexer there would read `A!` as directive_name `A`.
static enum SameLineResult scan_same_line(TSLexer *lexer) {
  if (lexer->lookahead == ';') {
    lexer->mark_end(lexer);
    lexer->result_symbol = SAME_LINE;
    return SAME_LINE_FOUND;
  }
  if (lexer->lookahead != ' ' && lexer->lookahead != '\t') return NOT_SAME_LINE;
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t') lexer->advance(lexer, true);
  lexer->mark_end(lexer);
  int32_t c = lexer->lookahead;
  if (lexer->eof(lexer) || c == '\n' || c == '\r' || c == '#' || c == '}') return NOT_SAME_LINE;
  if (c == '{') {
    advance(lexer);
    // A Jinja tag (always a control) or comment there closes a template scope or stands alone, as `{{ end }}` does.
    if (lexer->lookahead != '{') return SAME_LINE_LEXER_MOVED;
    advance(lexer);
    if (lexer->lookahead == '-') advance(lexer);
    while (lexer->lookahead == ' ' || lexer->lookahead == '\t') advance(lexer);
    char word[16];
    read_identifier(lexer, word, sizeof(word));
    if (is_template_keyword(word)) return SAME_LINE_LEXER_MOVED;
  }
  lexer->result_symbol = SAME_LINE;
  return SAME_LINE_FOUND;
}

void *tree_sitter_nginx_external_scanner_create(void) { return NULL; }
void tree_sitter_nginx_external_scanner_destroy(void *payload) { (void)payload; }
unsigned tree_sitter_nginx_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}
void tree_sitter_nginx_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

bool tree_sitter_nginx_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  (void)payload;
  // During error recovery every symbol is "valid"; let the internal lexer drive recovery instead.
  if (valid_symbols[ERROR_SENTINEL]) return false;

  if (valid_symbols[CONCAT]) {
    enum ConcatResult concat = scan_concat(lexer);
    if (concat != NO_CONCAT) return concat == CONCAT_FOUND;
  }
  if (valid_symbols[SAME_LINE]) {
    enum SameLineResult same_line = scan_same_line(lexer);
    if (same_line != NOT_SAME_LINE) return same_line == SAME_LINE_FOUND;
  }

  if (valid_symbols[LUA_CODE]) {
    lexer->result_symbol = LUA_CODE;
    return scan_lua_code(lexer);
  }
  if (valid_symbols[DOUBLE_QUOTED_CONTENT]) {
    lexer->result_symbol = DOUBLE_QUOTED_CONTENT;
    return scan_quoted_content(lexer, '"');
  }
  if (valid_symbols[SINGLE_QUOTED_CONTENT]) {
    lexer->result_symbol = SINGLE_QUOTED_CONTENT;
    return scan_quoted_content(lexer, '\'');
  }
  if (valid_symbols[TEMPLATE_KEYWORD] || valid_symbols[TEMPLATE_PIPELINE] || valid_symbols[TEMPLATE_COMMENT_TEXT]) {
    return scan_template_inside(lexer, valid_symbols);
  }
  if (valid_symbols[JINJA_KEYWORD] || valid_symbols[JINJA_PIPELINE]) {
    return scan_jinja_inside(lexer, valid_symbols);
  }
  if (valid_symbols[JINJA_COMMENT]) {
    // Where an action may start (and no quoted content is read: there `{#` is handled by the content scan).
    skip_space(lexer);
    if (lexer->lookahead == '{') return scan_jinja_comment(lexer);
  }
  if (valid_symbols[CONDITION_TEXT]) {
    lexer->result_symbol = CONDITION_TEXT;
    return scan_condition_text(lexer);
  }

  bool is_identifier = false;
  if (valid_symbols[WORD_CONTINUE]) {
    lexer->result_symbol = WORD_CONTINUE;
    return scan_word_fragment(lexer, false, &is_identifier);
  }
  if (valid_symbols[WORD_START] || valid_symbols[NAME_WORD_START]) {
    skip_space(lexer);
    bool scanned = scan_word_fragment(lexer, true, &is_identifier);
    if (!scanned) return false;
    if (valid_symbols[WORD_START]) {
      lexer->result_symbol = WORD_START;
      return true;
    }
    // A plain identifier at the start of a statement is a directive name, lexed by the grammar itself.
    if (is_identifier) return false;
    lexer->result_symbol = NAME_WORD_START;
    return true;
  }
  return false;
}
