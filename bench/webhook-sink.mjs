// The receiving end of bench/webhook-delivery.mjs, in its own process so it does not share the
// dispatcher's event loop. Answers 204 at once, counts deliveries and measures, for each first arrival of
// an event, the delay since the event's timestamp (taken in the transaction that committed it).
import http from 'node:http';

const delays = [];
const seenDeliveries = new Set();
let received = 0;
/** One body as received, so a benchmark can send bodies of the same size. */
let sample = null;

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const arrived = Date.now();
    received++;
    const deliveryId = req.headers['x-service-delivery'];
    if (!seenDeliveries.has(deliveryId)) {
      seenDeliveries.add(deliveryId);
      const text = Buffer.concat(chunks).toString('utf8');
      sample ??= text;
      const payload = JSON.parse(text);
      delays.push(arrived - Date.parse(payload.timestamp));
    }
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;

process.on('message', (message) => {
  if (message === 'stats') {
    process.send({ received, distinct: seenDeliveries.size, delays });
  } else if (message === 'count') {
    process.send({ received, distinct: seenDeliveries.size });
  } else if (message === 'sample') {
    process.send({ sample });
  } else if (message === 'reset') {
    delays.length = 0;
    seenDeliveries.clear();
    received = 0;
    process.send({ reset: true });
  } else if (message === 'stop') {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});

server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
