// What a node built-in other than path and url is in the browser bundles: an empty module, so a call of any of its
// functions fails ("… is not a function"). The core reaches the disk only through a FileHost, and a browser gets a
// virtual one (model/virtual-host.ts, lsp/documents.ts openDocumentsHost); code that still calls one on a browser
// path is caught by the caller's error handling, as a missing file would be.
module.exports = {};
