// Which nginx a floating Docker tag runs, as of this table's date. A tag such as `nginx:stable` or `nginx:latest`
// names no version: it is whatever the image's maintainers last pushed, so the tool can only know the release lines
// current when this table was written. Update it with each nginx stable release (every April) and when a new
// mainline line or OpenResty release appears; nothing else in the code holds release numbers.
//
// As of 2026-11 (nginx.org news, the docker-library/official-images `nginx` entry, openresty.org):
// - mainline is 1.31 (`nginx:mainline`, `latest`, `alpine`, `perl`, `1`, ...), stable is 1.30 (`nginx:stable*`);
// - the 1.29 mainline line ended with 1.29.8 (1.29.7 brought the keepalive defaults), so `nginx:1.29` is 1.29.8;
// - OpenResty names its bundled nginx core: 1.21.4.x, 1.25.3.x, 1.27.1.x and 1.29.2.x (the newest, behind every
//   floating `openresty/openresty` tag) bundle nginx 1.21.4, 1.25.3, 1.27.1 and 1.29.2.
import type { NginxVersion } from '../analysis/versions.js';

export const RELEASES_AS_OF = '2026-11';

/** `nginx:mainline`, `nginx:latest`, `nginx:1`, any variant tag that names neither a version nor `stable`. */
export const MAINLINE_LINE: NginxVersion = [1, 31, 0];
/** `nginx:stable` and its variants (`stable-alpine`, `stable-perl`, ...). */
export const STABLE_LINE: NginxVersion = [1, 30, 0];

/**
 * The last release of finished lines where the patch matters to a rule (`nginx:1.29` is 1.29.8, past 1.29.7). A line
 * not listed is read as X.Y.0: every other line is wholly before or wholly after 1.29.7.
 */
export const LAST_PATCH: Readonly<Record<string, number>> = { '1.29': 8 };

/** OpenResty release lines -> the nginx core they bundle (`openresty/openresty:1.27` is nginx 1.27.1). */
export const OPENRESTY_CORES: Readonly<Record<string, NginxVersion>> = {
  '1.21': [1, 21, 4],
  '1.25': [1, 25, 3],
  '1.27': [1, 27, 1],
  '1.29': [1, 29, 2],
};

/** The newest OpenResty's nginx core: `openresty/openresty:latest`, `alpine`, `bookworm-fat`, ... */
export const OPENRESTY_NEWEST_CORE: NginxVersion = [1, 29, 2];
