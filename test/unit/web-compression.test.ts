import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptedEncoding, COMPRESS_FROM_BYTES, compressJson } from '../../src/http/compress-json.js';
import { webUi } from '../../src/http/web-ui.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'laneboard-web-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('precompressed web UI files', () => {
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Laneboard</title>');
  fs.writeFileSync(path.join(root, 'assets/app-abc123.js'), script);
  fs.writeFileSync(path.join(root, 'assets/app-abc123.js.br'), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(root, 'assets/app-abc123.js.gz'), zlib.gzipSync(script));

  const app = Fastify();
  const ready = webUi(app, { root }).then(() => app.ready());
  afterAll(() => app.close());
  const get = async (url: string, encoding?: string) => {
    await ready;
    return app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });
  };

  it('sends the brotli copy to a browser that takes br, gzip to one that takes only gzip', async () => {
    const br = await get('/assets/app-abc123.js', 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
  });

  it('sends the file as it is to a client that takes neither, and never serves a copy by its own name', async () => {
    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect((await get('/assets/app-abc123.js.br', 'br')).statusCode).toBe(404);
  });
});

describe('compressed JSON answers', () => {
  const big = { data: Array.from({ length: 200 }, (_, i) => ({ id: `task_${i}`, title: `Task ${i}` })) };
  const app = Fastify();
  const ready = (async () => {
    await app.register(compressJson);
    app.get('/big', async () => big);
    app.get('/small', async () => ({ data: { id: 'task_1' } }));
    app.get('/events', async (_request, reply) => reply.type('text/event-stream').send('x'.repeat(4000)));
    await app.ready();
  })();
  afterAll(() => app.close());
  const get = async (url: string, encoding?: string) => {
    await ready;
    return app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });
  };

  it('compresses an answer over 1 KB with brotli or gzip as accepted', async () => {
    expect(JSON.stringify(big).length).toBeGreaterThan(COMPRESS_FROM_BYTES);
    const br = await get('/big', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(big);
    expect(br.rawPayload.length).toBeLessThan(JSON.stringify(big).length / 4);
    const gz = await get('/big', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(big);
  });

  it('leaves small answers, clients without an encoding and other types alone', async () => {
    const small = await get('/small', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ data: { id: 'task_1' } });
    const plain = await get('/big', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(big);
    expect((await get('/big', 'br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
    expect((await get('/events', 'br')).headers['content-encoding']).toBeUndefined();
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(acceptedEncoding('gzip, br')).toBe('br');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding(undefined)).toBeNull();
  });
});
