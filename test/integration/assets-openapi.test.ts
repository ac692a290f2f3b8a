import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/dialects.js';

describe('asset and reaction routes in the OpenAPI document', () => {
  const t = useTestApp('sqlite');

  it('documents the upload body, the download and the reaction paths', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/ext/v1/openapi.json' })).json();
    const assets = doc.paths['/api/ext/v1/boards/{boardId}/tasks/{taskId}/assets'];
    expect(Object.keys(assets).sort()).toEqual(['get', 'post']);
    const upload = assets.post.requestBody.content['multipart/form-data'].schema;
    expect(upload.required).toEqual(['file']);
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(assets.post.responses)).toEqual(expect.arrayContaining(['201', '413', '415']));
    const asset = assets.post.responses['201'].content['application/json'].schema.properties.data;
    expect(Object.keys(asset.properties).sort()).toEqual(
      ['contentType', 'createdAt', 'filename', 'id', 'sha256', 'size', 'source', 'taskId'].sort(),
    );
    const content = doc.paths['/api/ext/v1/boards/{boardId}/tasks/{taskId}/assets/{assetId}/content'];
    expect(content.get.responses['200'].content['*/*'].schema).toMatchObject({ format: 'binary' });
    const reactions =
      doc.paths['/api/ext/v1/boards/{boardId}/tasks/{taskId}/comments/{commentId}/reactions/{content}'];
    expect(Object.keys(reactions).sort()).toEqual(['delete', 'put']);
    const contentParam = reactions.put.parameters.find((p: { name: string }) => p.name === 'content');
    expect(contentParam.schema.enum).toEqual([
      '+1',
      '-1',
      'laugh',
      'confused',
      'heart',
      'hooray',
      'rocket',
      'eyes',
    ]);
  });
});
