// Which nginx a floating Docker tag runs, and which releases exist, as of this table's date. A tag such as
// `nginx:stable` or `nginx:latest` names no version: it is whatever the image's maintainers last pushed, so the tool
// can only know the releases current when this table was written. Update it with each nginx release (stable every
// April, mainline every few weeks) and when a new OpenResty release appears; nothing else in the code holds release
// numbers.
//
// As of 2026-09-15 (nginx.org news and CHANGES, quoted with the release tags' dates in public notes; release tags up
// to 1.31.4 / 1.30.4 read in github.com/nginx/nginx; the docker-library/official-images `nginx` entry; openresty.org):
// - mainline is 1.31.6 (`nginx:mainline`, `latest`, `alpine`, `perl`, `1`, `1.31`, ...), stable is 1.30.5
//   (`nginx:stable*`, `1.30`); both were released on 15 September 2026;
// - the 1.29 mainline line ended with 1.29.8 (1.29.4 added `proxy_http_version 2`, 1.29.7 brought the keepalive
//   defaults), so `nginx:1.29` is 1.29.8;
// - OpenResty names its bundled nginx core: 1.21.4.x, 1.25.3.x, 1.27.1.x and 1.29.2.x (the newest, behind every
//   floating `openresty/openresty` tag) bundle nginx 1.21.4, 1.25.3, 1.27.1 and 1.29.2.
import { compareVersions, type NginxVersion } from '../analysis/versions.js';

export const RELEASES_AS_OF = '2026-09-15';

/** The newest mainline release: `nginx:mainline`, `nginx:latest`, `nginx:1`, any variant tag naming no version. */
export const MAINLINE_LINE: NginxVersion = [1, 31, 6];
/** The newest stable release: `nginx:stable` and its variants (`stable-alpine`, `stable-perl`, ...). */
export const STABLE_LINE: NginxVersion = [1, 30, 5];

/**
 * The last (or, for the current lines, the newest) release of lines where the patch matters: `nginx:1.29` is 1.29.8,
 * past 1.29.4 and 1.29.7, and `nginx:1.30` / `nginx:1.31` run the newest stable and mainline releases. A line not
 * listed is read as X.Y.0: every other line is wholly before or wholly after the changes the rules know.
 */
export const LAST_PATCH: Readonly<Record<string, number>> = {
  '1.29': 8,
  [`${STABLE_LINE[0]}.${STABLE_LINE[1]}`]: STABLE_LINE[2],
  [`${MAINLINE_LINE[0]}.${MAINLINE_LINE[1]}`]: MAINLINE_LINE[2],
};

/** OpenResty release lines -> the nginx core they bundle (`openresty/openresty:1.27` is nginx 1.27.1). */
export const OPENRESTY_CORES: Readonly<Record<string, NginxVersion>> = {
  '1.21': [1, 21, 4],
  '1.25': [1, 25, 3],
  '1.27': [1, 27, 1],
  '1.29': [1, 29, 2],
};

/** The newest OpenResty's nginx core: `openresty/openresty:latest`, `alpine`, `bookworm-fat`, ... */
export const OPENRESTY_NEWEST_CORE: NginxVersion = [1, 29, 2];

/**
 * A target no release this table knows can be: newer than the newest mainline release (a later release, or a typo).
 * Its findings are those of the newest behaviour the rules know; the report says so.
 */
export function newerThanKnownReleases(version: NginxVersion): boolean {
  return compareVersions(version, MAINLINE_LINE) > 0;
}
