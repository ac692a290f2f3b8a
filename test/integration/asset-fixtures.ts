import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export type FormPart =
  | { name: string; filename: string; contentType?: string; content: Buffer | string }
  | { name: string; value: string };

const BOUNDARY = '----laneboard-test-boundary-7MA4YWxkTrZu0gW';

/** A multipart/form-data body built by hand, so tests control every part (two files, no file, ...). */
export function multipartBody(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(Buffer.from(`--${BOUNDARY}\r\n`));
    if ('filename' in part) {
      pieces.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            (part.contentType ? `Content-Type: ${part.contentType}\r\n` : '') +
            '\r\n',
        ),
      );
      pieces.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    } else {
      pieces.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}`));
    }
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}

export function upload(
  t: { app: FastifyInstance },
  key: string,
  url: string,
  parts: FormPart[],
): Promise<LightMyRequestResponse> {
  const { payload, contentType } = multipartBody(parts);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
    payload,
  });
}

/** A file part named `file`. */
export function filePart(filename: string, content: Buffer | string, contentType = 'text/plain'): FormPart {
  return { name: 'file', filename, contentType, content };
}
