// node:url's two file-URL functions for the browser bundles (the language server in a web worker names documents by
// path, as on a disk): POSIX paths, with node's refusals (a host, an encoded `/`) and node's escaping.
export function fileURLToPath(input) {
  const url = typeof input === 'string' ? new URL(input) : input;
  if (url.protocol !== 'file:') throw new TypeError('The URL must be of scheme file');
  if (url.hostname !== '') throw new TypeError('File URL host must be "localhost" or empty on this platform');
  if (/%2f/i.test(url.pathname)) throw new TypeError('File URL path must not include encoded / characters');
  return decodeURIComponent(url.pathname);
}

export function pathToFileURL(filePath) {
  const url = new URL('file://');
  url.pathname = filePath.replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/\t/g, '%09');
  return url;
}
