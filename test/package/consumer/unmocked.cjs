// A real server on 127.0.0.1 that answers 200: a request to it must fail the test under setupSandbox (msw's
// unhandled-request option set for the installed major), and would succeed if msw let it through.
const http = require('node:http');

exports.withRealServer = async (fn) => {
  const server = http.createServer((req, res) => res.end('reached the network'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn(`http://127.0.0.1:${server.address().port}/`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
};
