// Node's single-executable application (SEA) support: `npm run build:binary` (scripts/build-binary.mjs) injects the
// CLI bundle and the two wasm files into a copy of the node executable. Inside it there is no dist/ and no
// node_modules beside the program, so the files it would read from disk come from the executable's own assets.
//
// process.getBuiltinModule rather than `import 'node:sea'`: node:sea's isSea/getAsset exist only from node 20.12,
// and a static import of them would break the plain CLI on older node 20 releases (engines says >=20). It is
// undefined before 20.16, where the CLI can only be running from dist/ anyway: the binary is built with a newer node.
import type * as SeaModule from 'node:sea';

function seaModule(): typeof SeaModule | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltin !== 'function') return undefined;
  const sea = getBuiltin.call(process, 'node:sea') as typeof SeaModule | undefined;
  return typeof sea?.isSea === 'function' && sea.isSea() ? sea : undefined;
}

/** True inside the single executable built by `npm run build:binary`. */
export function runningAsSingleExecutable(): boolean {
  return seaModule() !== undefined;
}

/** The bytes of an asset embedded in the single executable , or undefined when not running as one. */
export function embeddedAsset(name: string): Uint8Array | undefined {
  const sea = seaModule();
  return sea ? new Uint8Array(sea.getAsset(name)) : undefined;
}
