// The receiving end of bench/webhook-delivery.mjs, in its own process so it does not share the
// dispatcher's event loop. Answers 204 at once, counts deliveries and measures, for each first arrival of
// an event, the delay since the event's timestamp (taken in the transaction that committed it).
import http from 'node:http';

const delays = [];
/** Wall-clock arrival (fractional ms) of each task's first delivery, by task id (webhook-latency.mjs). */
const arrivals = {};
const seenDeliveries = new Set();
let received = 0;
/** One body as received, so a benchmark can send bodies of the same size. */
let sample = null;

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const arrived = Date.now();
    const arrivedAt = performance.timeOrigin + performance.now();
    received++;
    const deliveryId = req.headers['x-service-delivery'];
    if (!seenDeliveries.has(deliveryId)) {
      seenDeliveries.add(deliveryId);
      const text = Buffer.concat(chunks).toString('utf8');
      sample ??= text;
      const payload = JSON.parse(text);
      delays.push(arrived - Date.parse(payload.timestamp));
      const taskId = payload.data?.task_id;
      if (typeof taskId === 'string' && !(taskId in arrivals)) arrivals[taskId] = arrivedAt;
    }
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;

process.on('message', (message) => {
  if (message === 'stats') {
    process.send({ received, distinct: seenDeliveries.size, delays });
  } else if (message === 'arrivals') {
    process.send({ arrivals });
  } else if (message === 'count') {
    process.send({ received, distinct: seenDeliveries.size });
  } else if (message === 'sample') {
    process.send({ sample });
  } else if (message === 'reset') {
    delays.length = 0;
    seenDeliveries.clear();
    received = 0;
    for (const taskId of Object.keys(arrivals)) delete arrivals[taskId];
    process.send({ reset: true });
  } else if (message === 'stop') {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});

server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
