// A peer for the gate benchmark: Node.js's own `http` server answering every request with
// one prepared response (the same headers and bytes the gate sends for the page), and
// nothing else. It shows what Node.js itself costs per request, apart from the framework
// and the gate's work.  node bench/node-http-peer.mjs <port> <response.json>
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const {
  positionals: [port, responseFile],
} = parseArgs({ allowPositionals: true });
const { headers, bodyBase64 } = JSON.parse(readFileSync(responseFile, 'utf8'));
const body = Buffer.from(bodyBase64, 'base64');
headers['content-length'] = String(body.length);
createServer((request, response) => {
  response.writeHead(200, headers);
  response.end(body);
}).listen(Number(port), '127.0.0.1');
