// --help and --version text.
import { VERSION } from '../engine/version.js';

export { VERSION };

export const HELP_TEXT = `nginx-keepalive ${VERSION}
Finds nginx and Dokku nginx.conf.sigil configurations that throw away upstream keepalive connections.

Usage:
  nginx-keepalive check [options] [paths...]
  nginx-keepalive prove [options] [paths...]
                                        run the configuration in real nginx (a loopback sandbox)
                                        before and after the fixes; compare upstream connections
                                        (see Prove below)
  nginx-keepalive format [--check] [--diff] [paths...]
                                        indent blocks and normalise spacing (see Format below)
  nginx-keepalive rules                 list the rules: id, default severity, fixable, nginx versions
  nginx-keepalive rule <id>             print a rule's documentation (markdown)
  nginx-keepalive --help | --version

Paths (default: .):
  file          checked whatever its name
  directory     walked for nginx.conf* and *.nginx, and for any other file whose text is nginx
                (*.conf, site files without an extension, *.template, *.j2, *.sigil, *.tmpl); data,
                code and documents (*.json, *.yml, *.md, *.js...) are never read, and .git,
                node_modules, vendor and .venv are skipped; finding no nginx file is an error
  'glob'        quoted, e.g. 'deploy/**/*.conf'; matching files are checked whatever their name
  -             one file read from stdin (alone; not a terminal), e.g. nginx -T | nginx-keepalive check -
  An nginx -T dump (piped, or saved and checked as a file) is split into its files: findings name
  their paths on the server; --fix-dry-run prints a patch against them, --fix refuses (exit 2).
  Binary files are skipped with a note.

Options:
  -f, --format <name>           stylish (default), json (ESLint's JSON shape, info findings at
                                severity 0), sarif (SARIF 2.1.0, for GitHub code scanning),
                                github (workflow-command annotations), gitlab (GitLab Code Quality
                                report) or rdjson (reviewdog, fixes as suggested changes)
      --fix                     apply the fixes and write the files (atomically; only inside the
                                checked paths; a file changed since it was read is left alone), then
                                report what remains
      --fix-dry-run             print the fixes as a unified diff instead; writes nothing
                                (both run the fixes to a fixed point; if fixes still apply after
                                100 passes, they say so and exit 1)
      --unsafe-fixes            with --fix or --fix-dry-run, apply unsafe fixes too (they change what
                                the upstream or a third party sees: headers sent to another origin,
                                DNS resolved at start-up); alone, counts them as fixable
      --verbose                 print each finding's details under it
      --statistics              end the report with the number of findings per rule (stylish only)
      --rule <RULE=SEVERITY>    off, info, warning or error; repeatable, e.g. --rule include=off
      --max-warnings <N>        fail on warnings only when there are more than N
                                (default: any warning fails)
      --nginx-version <X.Y.Z>   nginx version the configs run on (default: the settings file's, else
                                the one a Dockerfile or compose file of the repository names, else
                                before 1.29.7; the summary line says which was assumed)
      --nginx-build <BUILD>     a distribution's build of nginx whose backported directives count:
                                debian-12 (Debian 12's 1.22.1 with max_headers)
      --context <CONTEXT>       top-level context of the checked files that state none themselves:
                                main, http, server, location, stream or upstream (for a snippet
                                checked alone; a "# nginx-keepalive: context=" comment wins)
      --keepalive-connections <N>
                                the N of the "keepalive N;" fixes insert (default: 16)
      --path-map <FROM=TO>      read includes under FROM from TO (relative to the current directory);
                                repeatable, e.g. --path-map /etc/nginx=deploy/nginx. Includes are
                                followed only inside the checked paths and the mapped directories
  -j, --jobs <N>                threads analysing at once (default: 1); the report
                                is the same for any N (--fix and --fix-dry-run use one; so does the
                                single executable of npm run build:binary)
      --max-file-size <SIZE>    files larger than this are not checked, and an error says so
                                (default: 10M; e.g. 512K, 20M, or bytes)
      --stdin-filename <PATH>   with -: the name stdin's file goes by in the report, for its includes
                                (its directory is the checked path), context and settings file;
                                --fix then prints the fixed text on stdout and the report on stderr
      --debug                   list on stderr each file a directory walk skipped, and why
  -c, --config <file>           settings file to use instead of the nearest .nginx-keepalive.json
      --color, --no-color       force color on or off (default: on for a terminal; NO_COLOR and
                                FORCE_COLOR are respected)
  -h, --help                    show this help
  -v, --version                 show the version

Settings (.nginx-keepalive.json, the nearest one above the first path; flags override it):
  {"rules": {"include": "off"}, "nginxVersion": "1.22.1", "keepaliveConnections": 32,
   "pathMap": {"/etc/nginx": "deploy/nginx"}, "maxFileSize": "20M",
   "contexts": {"snippets/*.conf": "location"}}
                                                       pathMap targets are relative to the file

Suppressions (comments in the checked files):
  # nginx-keepalive-ignore RULE[, RULE]: reason        the next non-comment line
  # nginx-keepalive-ignore-file RULE[, RULE]: reason   the whole file
  A suppression that suppresses nothing is reported (rule unused-suppression).

Report (stylish):
  [*] before a message: --fix fixes it; [*unsafe]: only --fix --unsafe-fixes does; "no fix:" under
  a finding says why none is offered. The summary ends with how many --fix would fix.

Format (paths found as check finds them; - formats stdin to stdout):
  Rewrites each file in place (atomically, as --fix), changing only white space: indentation by
  block depth, one space between arguments, none before ";", at most one blank line in a row.
  Comments, quoting, template actions, Lua bodies and map/geo/types columns are kept as written.
  A file with a syntax error is not formatted (exit 2). Indentation: the flags, else the nearest
  .editorconfig (indent_style, indent_size, tab_width; read inside the checked paths and the
  current directory), else 4 spaces.
      --check                   write nothing; list the files that would change; exit 1 if any
      --diff                    write nothing; print the changes as a unified diff; exit 1 if any
      --indent-style <STYLE>    space or tab
      --indent-width <N>        columns per level (1 to 16)
      --stdin-filename, --max-file-size   as for check

Prove (paths, settings, includes and --path-map as for check):
  Copies the configuration into a private prefix under TMPDIR, rewrites every listen to a free
  127.0.0.1 port and every upstream server and literal proxy_pass target to a local counting
  stub (never resolving a name), runs nginx -t and nginx, sends requests with Connection: close
  to each prefix or = location with proxy_pass, then does the same with the fixes check --fix
  would make (--unsafe-fixes: those too). Other locations are listed with the reason they are
  skipped. Everything started is stopped and the prefix removed, also on timeout and Ctrl-C.
  - reads one file or an nginx -T dump from stdin, e.g. sudo nginx -T | nginx-keepalive prove -
      --requests <N>            requests per location (default: 200)
      --concurrency <C>         requests in flight (default: 8); reuse means at most C connections
                                after the fixes (nginx runs one worker)
      --nginx <PATH>            nginx binary (default: nginx on PATH, then /usr/sbin/nginx)
      --timeout <SECONDS>       for the whole run (default: 120)
  -f, --format <name>           table (default) or json
  Exit status: 0 every measured location reuses connections after the fixes (or already did);
  1 one still opens more, or its responses changed; 2 it cannot run (no nginx, nginx rejects
  the sandbox: its own message and line, a template, a timeout).

Exit status:
  0  no errors, and no warnings (or no more than --max-warnings); info findings never fail the run
  1  at least one error, or warnings beyond --max-warnings, or --fix stopped at its pass limit
  2  bad usage, an invalid settings file, a path that is missing or unreadable, a fixed file that
     could not be written (the other paths are still checked and written), or an unknown rule id
`;
