import net from 'node:net';

/**
 * Sends `head` and `body` on a fresh connection as they are — no Content-Length, no Transfer-Encoding,
 * so in HTTP/1.1 the request has no body and `body` is read as a next, malformed request — and returns
 * the status line of each answer, in order, once the server has closed the connection.
 */
export async function sendUnframed(port: number, head: string, body: string): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  socket.write(`${head}\r\n\r\n${body}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('close', () => resolve());
    socket.once('error', reject);
  });
  // Status lines: an answer's body runs straight into the next answer's status line.
  return [...received.matchAll(/HTTP\/1\.1 \d{3} [^\r]*/g)].map((match) => match[0]);
}
