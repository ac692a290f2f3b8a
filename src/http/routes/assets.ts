import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AssetService } from '../../domain/assets/asset-service.js';
import { DomainError } from '../../domain/errors.js';
import { Asset, AssetParams, AssetUploadBody, TaskAssetsParams } from '../../schemas/assets.js';
import { Data, NoContent } from '../../schemas/common.js';
import { READ_ERRORS, WRITE_ERRORS } from '../../schemas/errors.js';
import { actorOf } from '../plugins/authentication.js';
import { multipartOptions, readUpload, uploadValidatorCompiler } from './asset-upload.js';
import { contentDisposition, etagMatches } from './download-headers.js';

export const assetRoutes: FastifyPluginAsyncTypebox<{ assets: AssetService }> = async (app, { assets }) => {
  // Registered here, so only the upload route accepts multipart bodies; everywhere else they stay 415.
  await app.register(multipart, multipartOptions(assets.maxBytes));
  const tags = ['Assets'];
  const base = '/boards/:boardId/tasks/:taskId/assets';

  app.post(
    base,
    {
      validatorCompiler: uploadValidatorCompiler,
      schema: {
        tags,
        operationId: 'uploadAsset',
        summary: 'Upload an asset',
        description:
          'multipart/form-data with one part named `file`; larger than LANEBOARD_ASSET_MAX_BYTES (default 10 MiB) → 413 `payload_too_large`, nothing stored. No `file` part or more than one → 400 `validation_error`.',
        params: TaskAssetsParams,
        body: AssetUploadBody as never,
        response: {
          201: Data(Asset),
          ...WRITE_ERRORS,
          413: Type.Ref('ErrorResponse', {
            description:
              '`payload_too_large`: the file is over LANEBOARD_ASSET_MAX_BYTES; nothing is stored.',
          }),
          415: Type.Ref('ErrorResponse', {
            description: '`unsupported_media_type`: uploads must be sent as `multipart/form-data`.',
          }),
        },
      },
    },
    async (request, reply) => {
      const { boardId, taskId } = request.params;
      const actor = actorOf(request);
      // Permission and task are checked before the body is read: a refused upload reads no bytes.
      await assets.checkUpload(actor, boardId, taskId);
      try {
        const upload = await readUpload(request, assets);
        const asset = await assets.createAsset(actor, boardId, taskId, upload);
        return reply.status(201).send({ data: asset });
      } catch (error) {
        // The rest of an oversized body is not worth reading: answer now and close the connection.
        if (error instanceof DomainError && error.code === 'payload_too_large')
          reply.header('Connection', 'close');
        throw error;
      }
    },
  );

  app.get(
    base,
    {
      schema: {
        tags,
        operationId: 'listAssets',
        summary: 'List assets',
        description: "The task's assets, oldest first. Needs `read`.",
        params: TaskAssetsParams,
        response: { 200: Data(Type.Array(Asset)), ...READ_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { data: await assets.listAssets(actorOf(request), boardId, taskId) };
    },
  );

  app.get(
    `${base}/:assetId`,
    {
      schema: {
        tags,
        operationId: 'getAsset',
        summary: 'Get an asset',
        description: "The asset's metadata (not its bytes). Needs `read`.",
        params: AssetParams,
        response: { 200: Data(Asset), ...READ_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId, assetId } = request.params;
      return { data: await assets.getAsset(actorOf(request), boardId, taskId, assetId) };
    },
  );

  app.get(
    `${base}/:assetId/content`,
    {
      schema: {
        tags,
        operationId: 'downloadAsset',
        summary: 'Download an asset',
        description:
          "The stored Content-Type, Content-Length, ETag (the quoted sha256; If-None-Match → 304), `Content-Disposition: attachment` with the filename, `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`, so an uploaded HTML or SVG file never runs in the service's origin.",
        params: AssetParams,
        response: {
          200: {
            description: 'The file.',
            content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
          } as never,
          304: { description: 'Not modified (If-None-Match matched the ETag).', type: 'null' } as never,
          ...READ_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, assetId } = request.params;
      const download = await assets.openAssetContent(actorOf(request), boardId, taskId, assetId);
      const { asset } = download;
      const etag = `"${asset.sha256}"`;
      reply
        .header('ETag', etag)
        .header('Cache-Control', 'private, no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', 'sandbox');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply
        .header('Content-Type', asset.contentType)
        .header('Content-Length', asset.size)
        .header('Content-Disposition', contentDisposition(asset.filename))
        .send(download.open());
    },
  );

  app.delete(
    `${base}/:assetId`,
    {
      schema: {
        tags,
        operationId: 'deleteAsset',
        summary: 'Delete an asset',
        description: 'Needs `edit`. Fires `asset.deleted` (to `["*"]` webhooks only).',
        params: AssetParams,
        response: { 204: NoContent, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, assetId } = request.params;
      await assets.deleteAsset(actorOf(request), boardId, taskId, assetId);
      return reply.status(204).send(null);
    },
  );
};
