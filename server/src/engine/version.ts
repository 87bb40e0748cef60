// The program's version (package.json), printed by `--version` and sent by the language server in its
// initialize result; below both adapters so neither imports the other for it.
import packageJson from '../../../package.json' with { type: 'json' };

export const VERSION: string = packageJson.version;
