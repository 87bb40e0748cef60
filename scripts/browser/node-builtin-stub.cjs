// What a node built-in is in the playground's browser bundle: any use throws, naming it. The core reaches the disk
// only through a FileHost, and the playground gives it a virtual one (model/virtual-host.ts), so nothing here is
// called on its paths; a call that does come means a code path the page must not take, and says which.
module.exports = new Proxy(
  {},
  {
    get(_target, name) {
      if (name === '__esModule') return false;
      return () => {
        throw new Error(`${String(name)}() of a node built-in is not available in the browser`);
      };
    },
  },
);
