// The upstream of the seed experiment: an HTTP server answering every request with 50 kB, counting the TCP
// connections it accepts. Forked by seed.mjs; reports its port, then answers "count" and "reset" over IPC.
import http from 'node:http';

const BODY = Buffer.alloc(50 * 1024, 'x');
let connections = 0;
let requests = 0;

const server = http.createServer((request, response) => {
  requests++;
  response.writeHead(200, { 'content-type': 'text/plain', 'content-length': BODY.length });
  response.end(BODY);
});
server.on('connection', () => connections++);
// Longer than any run, so idle pooled connections are nginx's to close, not ours.
server.keepAliveTimeout = 120_000;

server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (message) => {
  if (message === 'reset') connections = requests = 0;
  process.send({ connections, requests });
});
process.on('disconnect', () => process.exit(0));
