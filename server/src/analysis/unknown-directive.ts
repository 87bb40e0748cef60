// The detail of an unknown directive finding: what the name was checked against (the directive table's module sets)
// and how to declare a module's directives the table lacks; for an NGINX Plus name, its module and page.
import { moduleSets } from '../model/directive-table.js';
import { plusDocsUrl, type PlusDirective } from '../model/nginx-plus.js';

/** What an unknown name was checked against, and how to declare a module's directives the table lacks. */
export function unknownDetail(): string {
  const { nginx, debianPackages, others } = moduleSets();
  const debian = debianPackages.map((pkg) => pkg.replace(/^libnginx-mod-/, '')).join(', ');
  const elsewhere = others.length > 0 ? `, and ${others.join(', ')}` : '';
  return (
    `No module the directive table knows has it: nginx ${nginx} (every module of its sources), Debian 12's ` +
    `${debianPackages.length} libnginx-mod-* packages (${debian})${elsewhere}. nginx -t rejects it unless a module ` +
    `of this build defines it (NGINX Plus, OpenResty, one compiled in): then list it under "directives.extra" in ` +
    `.nginx-keepalive.json.`
  );
}

export function plusDetail(plus: PlusDirective): string {
  return (
    `${plus.module} (${plusDocsUrl(plus)}) is part of the NGINX Plus commercial subscription; open-source nginx and ` +
    `Debian's say unknown directive. On an NGINX Plus build, list it under "directives.extra" in .nginx-keepalive.json.`
  );
}
