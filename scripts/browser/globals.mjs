// The `process` the core's browser bundle sees (path-browserify asks for cwd(); options read env): a page has one
// directory, `/`, and no environment.
export const process = { env: {}, cwd: () => '/', platform: 'browser', versions: {}, argv: [] };
