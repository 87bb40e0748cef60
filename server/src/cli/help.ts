// --help and --version text.
import packageJson from '../../../package.json' with { type: 'json' };

export const VERSION: string = packageJson.version;

export const HELP_TEXT = `nginx-keepalive ${VERSION}
Finds nginx and Dokku nginx.conf.sigil configurations that throw away upstream keepalive connections.

Usage:
  nginx-keepalive check [options] [paths...]
  nginx-keepalive --help | --version

Paths (default: .):
  file          checked whatever its name
  directory     walked for *.conf, nginx.conf*, *.nginx, and *.sigil / *.tmpl files that contain
                nginx directives; .git, .hg, .svn and node_modules are skipped
  'glob'        quoted, e.g. 'deploy/**/*.conf'; matching files are checked whatever their name
  Binary files are skipped with a note.

Options:
  -f, --format <stylish|json>   output format (default: stylish); json is ESLint's JSON shape,
                                with info findings at severity 0
      --nginx-version <X.Y.Z>   nginx version the configs run on (default: before 1.29.7)
      --path-map <FROM=TO>      read includes under FROM from TO (relative to the current directory);
                                repeatable, e.g. --path-map /etc/nginx=deploy/nginx. Includes are
                                followed only inside the checked paths and the mapped directories
      --color, --no-color       force color on or off (default: on for a terminal; NO_COLOR and
                                FORCE_COLOR are respected)
  -h, --help                    show this help
  -v, --version                 show the version

Exit status:
  0  no errors or warnings (info findings are printed but never fail the run)
  1  at least one error or warning
  2  bad usage, or a path that is missing or unreadable (the other paths are still checked)
`;
